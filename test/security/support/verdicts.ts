/** One attack's outcome: what was tried, on which variant, and whether the promise held. */
export interface Verdict {
  variant: string;
  attack: string;
  ok: boolean;
  detail: string;
}

/** The suite's verdicts, printed as they come; the last line is `N passed, N failed`. */
export class Verdicts {
  readonly all: Verdict[] = [];

  record(variant: string, attack: string, ok: boolean, detail = ''): void {
    this.all.push({ variant, attack, ok, detail });
    process.stdout.write(`  ${ok ? 'PASS' : 'FAIL'} [${variant}] ${attack}${detail ? ` — ${detail}` : ''}\n`);
  }

  get failed(): number {
    return this.all.filter((v) => !v.ok).length;
  }

  summary(): string {
    return `${this.all.length - this.failed} passed, ${this.failed} failed`;
  }
}
