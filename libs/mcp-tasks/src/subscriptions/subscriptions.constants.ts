/** At most this many task ids per `subscriptions/listen` request (the extension's limit). */
export const MAX_LISTEN_TASKS = 100;
