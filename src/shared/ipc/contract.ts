import { z } from 'zod';
import { ErrorInfoSchema } from '../errors';

/**
 * The one table of the IPC surface. Every invoke channel maps a request schema to a
 * response schema; every event names the payload main sends. Main validates each request
 * against this table; the preload and the test bridge expose exactly these names.
 */
const Empty = z.object({}).strict();

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  dbPath: z.string(),
  platform: z.string(),
  /** Which host the renderer talks to: 'electron' or 'bridge'. */
  host: z.enum(['electron', 'bridge']),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

export const invokeContract = {
  appInfo: { req: Empty, res: AppInfoSchema },
} as const;

export const eventContract = {} as const satisfies Record<string, z.ZodType>;

export type InvokeContract = typeof invokeContract;
export type Method = keyof InvokeContract;
export type Req<M extends Method> = z.input<InvokeContract[M]['req']>;
export type ParsedReq<M extends Method> = z.output<InvokeContract[M]['req']>;
export type Res<M extends Method> = z.output<InvokeContract[M]['res']>;

export type EventContract = typeof eventContract;
export type EventName = keyof EventContract;
export type EventPayload<E extends EventName> = z.output<EventContract[E]>;

export const METHODS = Object.keys(invokeContract) as Method[];
export const EVENTS = Object.keys(eventContract) as EventName[];

/** The channel string a method travels on (Electron IPC and the bridge alike). */
export const channelOf = (m: string): string => `sift:${m}`;
export const eventChannelOf = (e: string): string => `sift:event:${e}`;

/** Every answer is an envelope, so typed errors survive Electron's IPC (which keeps only message). */
export const EnvelopeSchema = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: ErrorInfoSchema }),
]);
export type Envelope = z.infer<typeof EnvelopeSchema>;

/** What the renderer sees as window.sift. */
export type SiftApi = {
  [M in Method]: Record<string, never> extends Req<M> ? (req?: Req<M>) => Promise<Res<M>> : (req: Req<M>) => Promise<Res<M>>;
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};
