/** The subject of every request when there is neither `auth` nor a subject resolver. */
export const HOST_SUBJECT = 'host';
