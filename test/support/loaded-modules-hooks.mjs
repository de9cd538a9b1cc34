// Module hooks (off the main thread): every URL a module resolves to, sent to the preload, and
// every CommonJS module the ESM loader loads (an `import` of a CommonJS package, which node scans
// for its named exports), sent as `commonjs-imported <url>`.
let port;

export function initialize(data) {
  port = data.port;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  port.postMessage(resolved.url);
  return resolved;
}

export async function load(url, context, next) {
  const loaded = await next(url, context);
  if (loaded.format === "commonjs") port.postMessage(`commonjs-imported ${url}`);
  return loaded;
}
