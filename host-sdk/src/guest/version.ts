/** The version of the guest runtime, sent in `hello` and shown by `__PLUGIN_GUEST_RUNTIME__`. */
export const GUEST_RUNTIME_VERSION = '0.1.0';
