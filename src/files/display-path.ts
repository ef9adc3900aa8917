import { isAbsolute, relative } from "node:path";

/** A path as short as it reads well: relative to the working folder when inside it. */
export function displayPath(path: string): string {
  const near = relative(process.cwd(), path);
  return near !== "" && !near.startsWith("..") && !isAbsolute(near) ? near : path;
}
