import { Matches } from 'class-validator';

/** The template's URI variable: a project name as export_project takes it (no slashes, no spaces). */
export class ManifestParams {
  @Matches(/^[\w.-]{1,64}$/, { message: 'project must be 1–64 letters, digits, dots, dashes or underscores' })
  project!: string;
}
