import { Injectable } from '@nestjs/common';
import { completerKey, type CompleterDefinition } from './completer-definition.js';

/** Every `@McpCompletion` of the app, by what it completes (`prompt <name>` or `template <name>`, the argument). */
@Injectable()
export class CompleterRegistry {
  private readonly completers = new Map<string, CompleterDefinition>();

  /** `ref` is `prompt <name>` or `template <name>`; a second completer for one argument fails startup. */
  add(ref: string, completer: CompleterDefinition): void {
    const key = completerKey(ref, completer.options.argument);
    const prior = this.completers.get(key);
    if (prior) {
      const where = (c: CompleterDefinition) => `${c.instance.constructor.name}.${c.methodName}`;
      throw new Error(
        `McpTasksModule: two @McpCompletion for argument "${completer.options.argument}" of ${ref} ` +
          `(${where(prior)} and ${where(completer)})`,
      );
    }
    this.completers.set(key, completer);
  }

  get(ref: string, argument: string): CompleterDefinition | undefined {
    return this.completers.get(completerKey(ref, argument));
  }

  get size(): number {
    return this.completers.size;
  }
}
