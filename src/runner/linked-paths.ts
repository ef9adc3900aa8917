import { lstatSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { InputError } from "../vocabulary/input-error.js";

/** A path with every link in its existing part resolved (the part that does not exist yet kept as written). */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realPath(parent), basename(path));
  }
}

/** Whether `inner` is `outer` or lies inside it, links resolved on both sides (`ln -s . here`: here is the working folder). */
export function isWithin(inner: string, outer: string): boolean {
  const path = relative(realPath(resolve(outer)), realPath(resolve(inner)));
  return path === "" || (path !== ".." && !path.startsWith(`..${sep}`) && !isAbsolute(path));
}

/**
 * Refuses a symbolic link where a result folder keeps its own subfolders (plots/, violations/): writing
 * through it would put the tool's files, or remove them, outside the folder.
 */
export function refuseLinkedSubfolder(outDir: string, name: string): void {
  let linked = false;
  try {
    linked = lstatSync(join(outDir, name)).isSymbolicLink();
  } catch {
    return;
  }
  if (linked) throw new InputError(`${join(outDir, name)} is a symbolic link: the tool writes its ${name}/ only inside the result folder; remove the link`);
}
