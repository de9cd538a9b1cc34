import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { HttpLimits } from "./http-limits.js";
import { responseWait } from "./response-wait.js";

/** Serves one request; resolves once its answer is handed to node:http (or the socket is gone). */
export type ServeOne = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

interface Queue {
  waiting: Array<{ req: IncomingMessage; res: ServerResponse }>;
  busy: boolean;
  /** Reading from the socket is stopped because too many requests wait on it. */
  held: boolean;
}

/**
 * How many requests that have others waiting behind them on their connection (pipelined) may
 * start in one turn of the event loop. A turn then costs a few calls however many connections
 * pipeline, so a client sending one request at a time (which starts at once) and a handler that
 * yields between steps are never stuck behind a flood.
 */
const PIPELINED_STARTS_PER_TURN = 4;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The requests of every connection, served as node:http means them to be: one at a time per
 * connection, in order, each answer sent before the next request starts.
 *
 * node:http parses pipelined requests as fast as they arrive and only stops reading a socket
 * when answers pile up unsent, which holds for a handler that answers synchronously. The host's
 * handler is async, so without this queue every pipelined request starts at once and its answer
 * is buffered until the ones before it are written: a client that pipelines thousands of
 * requests and never reads takes all the memory and the event loop. Here, a connection with
 * `maxPipelined` requests waiting is not read from until it drains (TCP pushes back on the
 * client), the next request waits until the previous answer has reached the socket (a client
 * that does not read stops being served, and is disconnected past `stallTimeoutMs`), and past
 * `maxInFlight` requests served at once a request is refused at once (503) rather than queued.
 *
 * @example const queues = new ConnectionQueues(limits, serveOne, refuseBusy); server.on("request", (req, res) => queues.admit(req, res));
 */
export class ConnectionQueues {
  #inFlight = 0;
  #pipelinedStarts = 0;
  #turnCounted = false;
  readonly #queues = new WeakMap<Socket, Queue>();

  constructor(
    private readonly limits: HttpLimits,
    private readonly serve: ServeOne,
    /** Answers a request refused because `maxInFlight` are being served (503). */
    private readonly refuse: (req: IncomingMessage, res: ServerResponse) => void,
  ) {}

  /** Requests being served right now, across every connection. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Queues a request behind the others of its connection. */
  admit(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    let queue = this.#queues.get(socket);
    if (!queue) {
      const created: Queue = { waiting: [], busy: false, held: false };
      queue = created;
      this.#queues.set(socket, created);
      // node:http resumes a socket on its own (a request body being read, an answer finished);
      // while held, reading stops again before any bytes are read.
      socket.on("resume", () => {
        if (created.held && !socket.destroyed) socket.pause();
      });
      socket.once("close", () => {
        created.waiting.length = 0;
      });
    }
    queue.waiting.push({ req, res });
    if (queue.waiting.length >= this.limits.maxPipelined && !queue.held) {
      queue.held = true;
      socket.pause();
    }
    void this.#pump(socket, queue);
  }

  /** Waits until a pipelined request may start in this turn of the event loop. */
  async #pipelinedTurn(): Promise<void> {
    while (this.#pipelinedStarts >= PIPELINED_STARTS_PER_TURN) await nextTurn();
    this.#pipelinedStarts++;
    if (!this.#turnCounted) {
      this.#turnCounted = true;
      setImmediate(() => {
        this.#pipelinedStarts = 0;
        this.#turnCounted = false;
      });
    }
  }

  async #pump(socket: Socket, queue: Queue): Promise<void> {
    if (queue.busy) return;
    queue.busy = true;
    try {
      for (let next = queue.waiting.shift(); next && !socket.destroyed; next = queue.waiting.shift()) {
        if (queue.held && queue.waiting.length < this.limits.maxPipelined) {
          queue.held = false;
          socket.resume();
        }
        const { req, res } = next;
        if (queue.waiting.length > 0) await this.#pipelinedTurn();
        if (socket.destroyed) break;
        if (this.#inFlight >= this.limits.maxInFlight) this.refuse(req, res);
        else {
          this.#inFlight++;
          try {
            await this.serve(req, res);
          } catch {
            res.destroy();
          } finally {
            this.#inFlight--;
          }
        }
        if (!(await responseWait(res, "finish", this.limits.stallTimeoutMs))) socket.destroy();
        // An answer the kernel takes at once finishes on the next tick, so without this a
        // connection's pipelined requests would run back to back without the event loop ever
        // reading another socket: one turn of the loop per request keeps every client served.
        await nextTurn();
      }
    } finally {
      queue.busy = false;
      if (socket.destroyed) queue.waiting.length = 0;
    }
  }
}
