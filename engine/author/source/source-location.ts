/** Where a compiled thing was declared, so runtime errors and journal entries can point at it. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
  /** The dotted path in the manifest. */
  path: string;
}
