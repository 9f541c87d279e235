import { Injectable } from '@nestjs/common';
import { McpTool } from '@mcp-tasks/nestjs';
import { ContactDto } from './contact.dto.js';

/** Fixture of `json-schema-2020-12`: the suite reads its input schema from tools/list. */
@Injectable()
export class SchemaFixtures {
  @McpTool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    input: ContactDto,
  })
  contact(args: ContactDto): string {
    return `Contact ${args.name ?? 'unnamed'} by ${args.contactMethod ?? (args.phone ? 'phone' : 'email')}`;
  }
}
