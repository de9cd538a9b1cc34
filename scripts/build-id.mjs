// Writes dist/build-id.txt: the sha256 of every file the build wrote to dist/ (the viewer's
// bundle and the precompiled validators included) and of the package's version. The manifest
// cache keys its entries by it, so an entry written by one build is never read by another.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

// A path, not the URL's pathname: that keeps percent-escapes (a space is %20), which no file has.
const root = fileURLToPath(new URL("../", import.meta.url));
const dist = join(root, "dist");
const hash = createHash("sha256");
hash.update(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version);
const files = readdirSync(dist, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name !== "build-id.txt")
  .map((entry) => join(entry.parentPath, entry.name))
  .sort();
for (const file of files) hash.update(`\n${relative(dist, file)}\n`).update(readFileSync(file));
writeFileSync(join(dist, "build-id.txt"), `${hash.digest("hex")}\n`);
