import { join } from "node:path";
import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import { temporaryName, writeFileAtomicWith } from "../files/atomic-file.js";
import { removePath } from "../files/checked-fs.js";
import { OUTPUT_FILES } from "../export/result-writer.js";
import { RUNS_PARQUET_SCHEMA, runsParquetColumns } from "../export/runs-parquet.js";
import type { RunRow } from "../run/run-types.js";
import { RecordStream } from "./recorded-runs.js";

export const RUNS_PARQUET = "runs.parquet";
/** Rows a row group: a reader's unit of work, and what this writer holds at a time. */
const ROW_GROUP = 65_536;

/**
 * Writes a complete folder's runs.parquet from its runs.jsonl (every record read and its check verified),
 * a row group at a time, Snappy-compressed, through writeFileAtomicWith: a kill leaves the old file or
 * none. The bytes depend only on the rows (no time, no host), so equal tables give equal files.
 */
export function writeRunsParquet(folder: string): { readonly rows: number } {
  const path = join(folder, RUNS_PARQUET);
  let rows = 0;
  try {
    writeFileAtomicWith(path, (append) => {
      const writer = new PartByteWriter(append);
      const parquet = new ParquetWriter({ writer, schema: [...RUNS_PARQUET_SCHEMA], codec: "SNAPPY", createdBy: "perceptron-lab" });
      const stream = new RecordStream(join(folder, OUTPUT_FILES.runsJsonl));
      let group: RunRow[] = [];
      const flush = () => {
        if (group.length === 0) return;
        void parquet.write({ columnData: runsParquetColumns(group), rowGroupSize: ROW_GROUP });
        rows += group.length;
        group = [];
      };
      for (let row = stream.take(); row !== null; row = stream.take()) {
        group.push(row);
        if (group.length === ROW_GROUP) flush();
      }
      flush();
      void parquet.finish();
    });
  } catch (error) {
    // Not left for the next command's clean-up: a file of up to a whole table's size.
    removePath(temporaryName(path));
    throw error;
  }
  return { rows };
}

/** hyparquet-writer's byte writer, emptied into the file (a part at a time) after each row group. */
class PartByteWriter extends ByteWriter {
  constructor(readonly append: (part: Uint8Array) => void) {
    super(1 << 20);
  }

  flush(): void {
    this.append(new Uint8Array(this.buffer, 0, this.index));
    this.index = 0;
  }

  override finish(): void {
    this.flush();
  }
}
