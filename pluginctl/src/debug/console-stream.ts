import type { CdpConnection, CdpEvent } from './cdp.js';
import { fetchObjectPreview } from './console-preview.js';

/**
 * The attribute the host SDK writes on every plugin frame (`createSandboxFrame` in
 * host-sdk/src/frame/sandbox-frame.ts). The frame's document is an opaque-origin `srcdoc`, so its
 * URL says nothing; the owning `<iframe>` element is the one place that names the plugin.
 */
export const PLUGIN_ID_ATTRIBUTE = 'data-plugin-id';

interface ObjectPreview {
  subtype?: string;
  overflow?: boolean;
  properties?: { name: string; type?: string; value?: string }[];
}

/** A console argument as `Runtime.consoleAPICalled` sends it (the fields used here). */
export interface RemoteObject {
  type?: string;
  subtype?: string;
  value?: unknown;
  unserializableValue?: string;
  description?: string;
  /** Present while the page holds the object; lets a preview be fetched later. */
  objectId?: string;
  preview?: ObjectPreview;
}

/** `{a: 1, b: 'x'}` or `[1, 2]` from the preview Chromium sends with console arguments. */
function formatPreview(preview: ObjectPreview): string {
  const isArray = preview.subtype === 'array';
  const items = (preview.properties ?? []).map((property) => {
    const value = property.type === 'string' ? `'${property.value ?? ''}'` : (property.value ?? '');
    return isArray ? value : `${property.name}: ${value}`;
  });
  if (preview.overflow) items.push('…');
  return isArray ? `[${items.join(', ')}]` : `{${items.join(', ')}}`;
}

interface SessionState {
  /** Tag of everything logged in this session's own frame (a plugin frame, or the page). */
  tag: Promise<string>;
  /** The page session this session's frame belongs to (itself for a page). */
  pageSessionId: string;
  /** Execution context id → frame id, for frames that run in this session's process. */
  contexts: Map<number, string>;
}

/** Plain objects and arrays print as a preview; other objects (dates, errors, maps, proxies, ...) as their description. */
function isPreviewed(arg: RemoteObject): boolean {
  return arg.type === 'object' && (arg.subtype === undefined || arg.subtype === 'array');
}

/** One argument from what the message carries; `undefined` for an object that needs a fetched preview. */
function formatArgument(arg: RemoteObject): string | undefined {
  if (arg.type === 'string') return String(arg.value);
  if (arg.unserializableValue !== undefined) return arg.unserializableValue;
  if (arg.type === 'undefined') return 'undefined';
  if (arg.value !== undefined) return JSON.stringify(arg.value);
  if (isPreviewed(arg)) {
    if (arg.preview) return formatPreview(arg.preview);
    if (arg.objectId !== undefined) return undefined;
  }
  return arg.description ?? arg.type ?? '';
}

/** Renders console arguments like the DevTools console does, from what the message carries. */
export function formatArguments(args: readonly RemoteObject[]): string {
  return args.map((arg) => formatArgument(arg) ?? arg.description ?? arg.type ?? '').join(' ');
}

/**
 * {@link formatArguments}, but a plain object or array that came without Chromium's preview is
 * printed from `fetchPreview(objectId)` (its description when that gives nothing).
 */
export async function describeArguments(args: readonly RemoteObject[], fetchPreview: (objectId: string) => Promise<string | undefined>): Promise<string> {
  const parts = await Promise.all(
    args.map(async (arg) => {
      const text = formatArgument(arg);
      if (text !== undefined) return text;
      const preview = arg.objectId === undefined ? undefined : await fetchPreview(arg.objectId);
      return preview ?? arg.description ?? arg.type ?? '';
    }),
  );
  return parts.join(' ');
}

/**
 * Streams the console of every page and of every frame inside it, each line tagged with where it
 * came from: `[page]`, `[plugin <id>]` or `[frame <url>]`. Chromium runs sandboxed frames out of
 * process, so frames are reached through `Target.setAutoAttach({flatten: true})` as well as
 * through the page's own execution contexts (when a frame shares the page's process).
 */
export class ConsoleStream {
  private readonly sessions = new Map<string, SessionState>();
  private readonly frameTags = new Map<string, Promise<string>>();
  private readonly attachedTargets = new Set<string>();
  // One chain keeps lines in the order the browser sent them while tags resolve.
  private output: Promise<void> = Promise.resolve();

  constructor(
    private readonly cdp: CdpConnection,
    private readonly write: (line: string) => void,
  ) {
    cdp.on('event', (event: CdpEvent) => this.handle(event));
  }

  /** Attaches to every page that exists now and to each page that opens later. */
  async start(): Promise<void> {
    await this.cdp.send('Target.setDiscoverTargets', { discover: true });
    const { targetInfos } = (await this.cdp.send('Target.getTargets')) as { targetInfos?: { targetId: string; type: string }[] };
    await Promise.all((targetInfos ?? []).filter((info) => info.type === 'page').map((info) => this.attachPage(info.targetId)));
  }

  private async attachPage(targetId: string): Promise<void> {
    if (this.attachedTargets.has(targetId)) return;
    this.attachedTargets.add(targetId);
    const { sessionId } = (await this.cdp.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
    this.sessions.set(sessionId, { tag: Promise.resolve('[page]'), pageSessionId: sessionId, contexts: new Map() });
    await this.enable(sessionId);
  }

  private async enable(sessionId: string): Promise<void> {
    // Every step may fail on a target type without that domain; the target must still be resumed,
    // or `waitForDebuggerOnStart` would leave it paused.
    await Promise.all([
      this.cdp.send('Runtime.enable', {}, sessionId).catch(() => undefined),
      this.cdp.send('Log.enable', {}, sessionId).catch(() => undefined),
      this.cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }, sessionId).catch(() => undefined),
    ]);
    await this.cdp.send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => undefined);
  }

  private handle(event: CdpEvent): void {
    const { method, params, sessionId } = event;
    if (method === 'Target.targetCreated') {
      const info = params.targetInfo as { targetId: string; type: string };
      if (info.type === 'page') void this.attachPage(info.targetId).catch(() => undefined);
      return;
    }
    if (method === 'Target.attachedToTarget' && sessionId) {
      void this.attachChild(sessionId, params).catch(() => undefined);
      return;
    }
    if (method === 'Target.detachedFromTarget') {
      this.sessions.delete(String(params.sessionId));
      return;
    }
    const session = sessionId ? this.sessions.get(sessionId) : undefined;
    if (!session || !sessionId) return;
    if (method === 'Runtime.executionContextCreated') {
      const context = params.context as { id: number; auxData?: { frameId?: string } };
      if (context.auxData?.frameId) session.contexts.set(context.id, context.auxData.frameId);
    } else if (method === 'Runtime.consoleAPICalled') {
      const type = String(params.type);
      const text = describeArguments((params.args as RemoteObject[] | undefined) ?? [], (objectId) => fetchObjectPreview(this.cdp, sessionId, objectId));
      this.emit(
        this.tagOfContext(sessionId, session, Number(params.executionContextId)),
        text.then((line) => `${type}: ${line}`),
      );
    } else if (method === 'Runtime.exceptionThrown') {
      const details = params.exceptionDetails as { text?: string; exception?: RemoteObject; executionContextId?: number };
      const text = details.exception?.description ?? details.text ?? 'exception';
      this.emit(this.tagOfContext(sessionId, session, Number(details.executionContextId)), `uncaught: ${text}`);
    } else if (method === 'Log.entryAdded') {
      const entry = params.entry as { level?: string; text?: string; source?: string; url?: string };
      const where = entry.url ? ` (${entry.url})` : '';
      this.emit(session.tag, `${entry.level ?? 'info'} (${entry.source ?? 'browser'}): ${entry.text ?? ''}${where}`);
    }
  }

  private async attachChild(parentSessionId: string, params: Record<string, unknown>): Promise<void> {
    const childSessionId = String(params.sessionId);
    const info = params.targetInfo as { targetId: string; type: string; url?: string };
    const parent = this.sessions.get(parentSessionId);
    if (!parent) return;
    // An out-of-process frame's target id is its frame id, which its owner element answers for.
    const tag = info.type === 'iframe' ? this.tagOfFrame(parent.pageSessionId, info.targetId, info.url) : parent.tag;
    this.sessions.set(childSessionId, { tag, pageSessionId: parent.pageSessionId, contexts: new Map() });
    await this.enable(childSessionId);
  }

  private tagOfContext(sessionId: string, session: SessionState, contextId: number): Promise<string> {
    const frameId = session.contexts.get(contextId);
    // Only a page's own process hosts frames other than its main one; an OOPIF session has its tag.
    if (!frameId || session.pageSessionId !== sessionId) return session.tag;
    return this.tagOfFrame(sessionId, frameId, undefined);
  }

  private tagOfFrame(pageSessionId: string, frameId: string, url: string | undefined): Promise<string> {
    let tag = this.frameTags.get(frameId);
    if (!tag) {
      tag = this.lookUpFrame(pageSessionId, frameId, url);
      this.frameTags.set(frameId, tag);
    }
    return tag;
  }

  private async lookUpFrame(pageSessionId: string, frameId: string, url: string | undefined): Promise<string> {
    try {
      const owner = (await this.cdp.send('DOM.getFrameOwner', { frameId }, pageSessionId)) as { backendNodeId?: number };
      if (owner.backendNodeId === undefined) return '[page]';
      const { node } = (await this.cdp.send('DOM.describeNode', { backendNodeId: owner.backendNodeId }, pageSessionId)) as { node: { attributes?: string[] } };
      const attributes = node.attributes ?? [];
      const index = attributes.indexOf(PLUGIN_ID_ATTRIBUTE);
      if (index >= 0 && index % 2 === 0 && attributes[index + 1]) return `[plugin ${attributes[index + 1]}]`;
      return `[frame ${url ?? frameId}]`;
    } catch {
      // The main frame has no owner element: it is the page itself.
      return url === undefined ? '[page]' : `[frame ${url}]`;
    }
  }

  private emit(tag: Promise<string>, text: string | Promise<string>): void {
    // Every line of a multi-line message (a stack trace) carries the tag, so grep keeps it whole.
    // A fetched preview is bounded in time, so waiting for it here never holds later lines long.
    this.output = this.output.then(async () => {
      const prefix = await tag;
      for (const line of (await text).split('\n')) this.write(`${prefix} ${line}`);
    });
  }
}
