import { IsString, Matches } from 'class-validator';

export class PublishReleaseDto {
  /** The version to publish, e.g. `1.2.0`. */
  @IsString()
  @Matches(/^\d+\.\d+\.\d+$/, { message: 'version must look like 1.2.0' })
  version!: string;
}
