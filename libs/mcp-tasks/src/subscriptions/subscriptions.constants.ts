/** At most this many task ids per `subscriptions/listen` request (the extension's limit). */
export const MAX_LISTEN_TASKS = 100;

/** At most this many resource URIs per `subscriptions/listen` request (as many as task ids). */
export const MAX_LISTEN_URIS = 100;
