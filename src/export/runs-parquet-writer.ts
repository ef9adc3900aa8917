import { createHash, type Hash } from "node:crypto";
import { createRequire } from "node:module";
import type { ParquetWriter } from "hyparquet-writer";
import type { RunRow } from "../run/run-types.js";
import type { BinaryRows } from "./binary-rows.js";
import { runsParquetSchema, RunsParquetColumns, WHOLE_ROW_GROUP } from "./runs-parquet.js";
import { BUILT_IN, type TableLayout } from "../run/table-layout.js";

/** What a runs.parquet holds, as the manifest records it: readers check the file against it before trusting a row. */
export interface RunsParquetDigest {
  readonly rows: number;
  readonly bytes: number;
  /** SHA-256 of the file's bytes, hex. */
  readonly sha256: string;
}

/**
 * Writes runs.parquet a row group at a time, through `append` (a file's checked writes): rows are added in
 * run order, held until a group is full, then encoded (Snappy) and handed on, so that memory is one group's
 * rows whatever the table's size. The bytes depend only on the rows and the group size (no time, no host).
 */
export class RunsParquetWriter {
  readonly #parquet: ParquetWriter;
  readonly #hash: Hash = createHash("sha256");
  readonly #rowGroup: number;
  readonly #indexed: boolean;
  readonly #group: RunsParquetColumns;
  #rows = 0;
  #bytes = 0;

  /**
   * `layout`: the run tables' columns (a sweep's plug-in bounds', table-layout.ts); `createdBy`: the footer's
   * created_by, "perceptron-lab version X.Y.Z" as the runner passes it (Parquet's convention: name, version).
   */
  constructor(append: (part: Uint8Array) => void, rowGroup = WHOLE_ROW_GROUP, layout: TableLayout = BUILT_IN, createdBy = "perceptron-lab") {
    this.#rowGroup = rowGroup;
    this.#group = new RunsParquetColumns(layout);
    const { ParquetWriter, PartByteWriter } = writerLibrary();
    const writer = new PartByteWriter((part) => {
      this.#hash.update(part);
      this.#bytes += part.length;
      append(part);
    });
    // A shard's small groups (see shardRowGroup) carry no statistics nor page index: at 256 rows a group
    // they would outweigh the data. A whole sweep's file has both, for readers that filter on them.
    this.#indexed = rowGroup === WHOLE_ROW_GROUP;
    this.#parquet = new ParquetWriter({ writer, schema: [...runsParquetSchema(layout)], codec: "SNAPPY", createdBy, statistics: this.#indexed });
  }

  add(rows: readonly RunRow[]): void {
    for (const row of rows) {
      this.#group.add(row);
      if (this.#group.length === this.#rowGroup) this.#flush();
    }
  }

  /** Binary rows (binary-rows.ts, in the writer's layout), as add takes their rows: the same bytes. */
  addBinary(rows: BinaryRows): void {
    for (let from = 0; from < rows.count; ) {
      const to = Math.min(rows.count, from + this.#rowGroup - this.#group.length);
      this.#group.addBinary(rows, from, to);
      from = to;
      if (this.#group.length === this.#rowGroup) this.#flush();
    }
  }

  /** Writes the last group and the footer; what the file holds. */
  finish(): RunsParquetDigest {
    this.#flush();
    void this.#parquet.finish();
    return { rows: this.#rows, bytes: this.#bytes, sha256: this.#hash.digest("hex") };
  }

  #flush(): void {
    const rows = this.#group.length;
    if (rows === 0) return;
    void this.#parquet.write({ columnData: this.#group.take().map((column) => ({ ...column, offsetIndex: this.#indexed })), rowGroupSize: this.#rowGroup });
    this.#rows += rows;
  }
}

/**
 * hyparquet-writer, loaded with the first runs.parquet written (its ~27 modules are ~50 ms of a process's start,
 * which a shard writing text tables never needs), with its byte writer made to empty itself (a part at a time)
 * after each row group and at the end.
 */
function writerLibrary(): ReturnType<typeof loadWriter> {
  return (library ??= loadWriter());
}

function loadWriter() {
  const { ByteWriter, ParquetWriter } = createRequire(import.meta.url)("hyparquet-writer") as typeof import("hyparquet-writer");
  class PartByteWriter extends ByteWriter {
    constructor(readonly append: (part: Uint8Array) => void) {
      super(1 << 20);
    }

    flush(): void {
      if (this.index > 0) this.append(new Uint8Array(this.buffer, 0, this.index));
      this.index = 0;
    }

    override finish(): void {
      this.flush();
    }
  }
  return { ParquetWriter, PartByteWriter };
}

let library: ReturnType<typeof loadWriter> | undefined;
