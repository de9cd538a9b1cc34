# The eval-simulate sidecar: serves a Recipe's fakes on :7353.
#   docker build -t eval-simulate .
#   docker run -v "$PWD/examples/crm:/recipe:ro" -p 7353:7353 eval-simulate
# The Recipe folder is mounted at /recipe; EVAL_SIMULATE_MANIFEST names its manifest.

FROM node:20-slim AS build
WORKDIR /build
COPY package.json package-lock.json ./
# Dependencies only: the build below needs the sources, which come after for a better cache.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY schema schema
COPY engine engine
COPY cli cli
# The build bundles the package's entries (scripts/bundle.mjs) and the viewer (scripts/build-viewer.mjs:
# viewer/ into dist/viewer/), and
# precompiles the published schemas' validators (scripts/build-validators.mjs: into dist/validators/).
COPY scripts/bundle.mjs scripts/build-viewer.mjs scripts/build-validators.mjs scripts/build-id.mjs scripts/
COPY viewer viewer
COPY eval-simulate.schema.json eval-simulate.evals.schema.json ./
RUN npm run build

FROM node:20-slim
ENV NODE_ENV=production \
    EVAL_SIMULATE_MANIFEST=/recipe/fakes.yaml \
    EVAL_SIMULATE_HOST=0.0.0.0 \
    EVAL_SIMULATE_PORT=7353
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /build/dist dist
# Every schema the package publishes: validate and serve read the manifest's, eval and verify the evals file's.
COPY eval-simulate.schema.json eval-simulate.evals.schema.json ./
# A mounted Recipe's handler modules `import ... from "eval-simulate"`: resolve it from /recipe.
RUN mkdir -p /node_modules && ln -s /app /node_modules/eval-simulate
# Not root: the image's own `node` user (uid 1000). A state file or run folder it writes goes to a
# volume that user can write (docs/serving.md#the-sidecar-image).
USER node
EXPOSE 7353
HEALTHCHECK --interval=5s --timeout=2s --start-period=10s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:7353/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is PID 1 (no npx, no shell): it receives SIGTERM, flushes the state file and exits 0.
ENTRYPOINT ["node", "/app/dist/cli/main.js", "serve"]
