import { promised } from '../common/promised.js';
import type { ToolOutput } from '../decorators/mcp-tool.decorator.js';
import type { CallToolResult } from '../protocol/wire.interface.js';
import { binaryContent } from './binary-content.js';
import { contentBlockProblem, isContentBlock } from './content-block.js';
import { InvalidToolResult } from './invalid-tool-result.error.js';
import { outputProblems } from './output.validator.js';
import { jsonOf, type JsonOf, type ResultSerializerOptions } from './result-serializer.js';
import { ToolError } from './tool.error.js';

/** How a tool's return value becomes its result. */
export interface ResultShaping {
  /** class-transformer options for its objects (the `serializer` option, then `@SerializeOptions()`). */
  serializer: ResultSerializerOptions;
  /** Its `output` DTO: `structuredContent` must match it. */
  output?: ToolOutput;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  const proto = v && typeof v === 'object' ? (Object.getPrototypeOf(v) as unknown) : undefined;
  return proto === Object.prototype || proto === null;
};

/**
 * Turns what a tool method returned into a `CallToolResult`, or throws `InvalidToolResult` saying why it cannot be
 * one. `undefined`/`null` is an empty result; a string one text block (a number or boolean its text); a `Buffer`
 * an image or audio block by its bytes; one content block, or a non-empty array of nothing but valid content
 * blocks, is the content; a plain object with `content`, `structuredContent` or `isError` is a full result (its
 * blocks checked). Any other object or array — class instances included — is data: `structuredContent`, with its
 * JSON as a text block. With `output`, a result that is not `isError` must carry matching `structuredContent`.
 */
export function toCallToolResult(value: unknown, how: ResultShaping): Promise<CallToolResult> {
  return promised(() => callToolResultOf(value, how));
}

/** `toCallToolResult` for the hot path: a value when there is no `output` to wait for, what it refuses thrown. */
export function callToolResultOf(value: unknown, how: ResultShaping): CallToolResult | Promise<CallToolResult> {
  const result = shape(value, how.serializer);
  // Only an `output` DTO needs waiting for (class-validator): without one no promise is made (the hot path).
  return how.output && result.isError !== true ? checkOutput(result, how.output).then(() => result) : result;
}

function shape(value: unknown, serializer: ResultSerializerOptions): CallToolResult {
  if (value === undefined || value === null) return { content: [] };
  if (typeof value === 'string') return text(value);
  if (typeof value === 'number' || typeof value === 'boolean') return text(String(value));
  if (typeof value !== 'object') throw new InvalidToolResult(`a ${typeof value} is not a tool result`);
  if (value instanceof Uint8Array) return binary(value);
  if (value instanceof ArrayBuffer) return binary(new Uint8Array(value));
  if (Array.isArray(value) && value.length > 0 && value.every(isContentBlock)) return { content: value };
  if (isPlainObject(value) && isContentBlock(value)) return { content: [value] };
  if (isPlainObject(value) && (Array.isArray(value.content) || 'structuredContent' in value || 'isError' in value))
    return fullResult(value, serializer);
  return data(jsonOf(value, serializer));
}

const text = (s: string): CallToolResult => ({ content: [{ type: 'text', text: s }] });

function binary(bytes: Uint8Array): CallToolResult {
  const block = binaryContent(bytes);
  if (block) return { content: [block] };
  throw new InvalidToolResult(
    `a Buffer of ${bytes.byteLength} bytes that are no image or audio format it knows: return ` +
      'imageContent(bytes, mimeType), audioContent(bytes, mimeType) or resourceContent(uri, bytes, mimeType)',
  );
}

/** Data: its JSON value as `structuredContent` (any JSON value on 2026-07-28), and as text for other clients. */
function data(json: JsonOf): CallToolResult {
  if (json.value !== null && typeof json.value === 'object')
    return { content: [{ type: 'text', text: json.text }], structuredContent: json.value };
  // An object whose JSON is not one (a Date is a string): its text.
  return text(typeof json.value === 'string' ? json.value : json.text);
}

function fullResult(obj: Record<string, unknown>, serializer: ResultSerializerOptions): CallToolResult {
  const { resultType: _ignored, content = [], structuredContent, isError, _meta, ...rest } = obj;
  if (!Array.isArray(content)) throw new InvalidToolResult('its content is not an array of content blocks');
  content.forEach((block, i) => {
    const problem = contentBlockProblem(block);
    if (problem) throw new InvalidToolResult(`content[${i}] is not a content block: ${problem}`);
  });
  if (isError !== undefined && typeof isError !== 'boolean') throw new InvalidToolResult('its isError is no boolean');
  if (_meta !== undefined && !isPlainObject(_meta)) throw new InvalidToolResult('its _meta is not an object');
  const result: CallToolResult = { ...rest, content: content as CallToolResult['content'] };
  if (structuredContent !== undefined)
    result.structuredContent =
      structuredContent !== null && typeof structuredContent === 'object'
        ? jsonOf(structuredContent, serializer).value
        : structuredContent;
  if (isError !== undefined) result.isError = isError;
  if (_meta !== undefined) result._meta = _meta;
  // What else it carries must be JSON too, or it could not be sent.
  jsonOf(result, {});
  return result;
}

async function checkOutput(result: CallToolResult, output: ToolOutput): Promise<void> {
  const name = Array.isArray(output) ? `[${output[0].name}]` : output.name;
  if (result.structuredContent === undefined)
    throw new InvalidToolResult(`it has no structuredContent, and the tool declares output ${name}`);
  const problems = await outputProblems(output, result.structuredContent);
  if (problems.length > 0)
    throw new InvalidToolResult(
      `its structuredContent does not match output ${name}: ${problems.join('; ')}`,
      result.structuredContent,
    );
}

export function toolErrorResult(error: ToolError): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text: error.message }], isError: true };
  if (error.structuredContent) result.structuredContent = error.structuredContent;
  return result;
}
