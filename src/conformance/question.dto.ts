import { IsString } from 'class-validator';

export class PromptDto {
  /** Sent to the client's model as one user message. */
  @IsString()
  prompt!: string;
}

export class MessageDto {
  /** Shown to the user with the form. */
  @IsString()
  message!: string;
}
