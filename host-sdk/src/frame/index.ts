/**
 * Framework-free building blocks for showing plugins: the sandbox frame's document and element,
 * and inline mounting into the launcher's document. `<plugin-frame>` builds on these.
 *
 * @packageDocumentation
 */
export { buildPluginDocument } from './plugin-document.js';
export type { PluginDocumentOptions } from './plugin-document.js';
export { createSandboxFrame, hideFrame, PLUGIN_FRAME_SANDBOX, showFrame } from './sandbox-frame.js';
export type { SandboxFrameOptions } from './sandbox-frame.js';
export { mountInlinePlugin } from './inline-mount.js';
export type { InlineMount, InlineMountOptions } from './inline-mount.js';
export { FRAME_HEIGHT_MESSAGE, followFrameHeights, frameHeightOf, MAX_FRAME_HEIGHT } from './frame-height.js';
export { FRAME_REPORT_EVENT } from './report-event.js';
export type { FrameLoadFailedDetail, FrameReportDetail, FrameRuntimeErrorDetail } from './report-event.js';
export { escapeInlineScript } from './script-text.js';
