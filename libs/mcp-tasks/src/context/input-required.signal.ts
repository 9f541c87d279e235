import { IntrinsicException } from '@nestjs/common';
import type { InputRequest } from '../protocol/wire.interface.js';

/**
 * Thrown out of a synchronous run when the tool asks for input it does not have yet: the request
 * then answers with an MRTR `input_required` round and the method runs again with the answers.
 */
export class InputRequiredSignal extends IntrinsicException {
  constructor(
    readonly key: string,
    readonly request: InputRequest,
  ) {
    super(`input required: ${key}`);
  }
}
