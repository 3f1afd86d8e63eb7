import type { ApiFields, CanonicalMessage, CanonicalRequest, ProtocolName } from '../canonical/index.js';
import { quoteCallerText, unknownFieldError, unsupportedFeatureError } from '../canonical/index.js';
import type { ModelCapabilities } from '../providers/types.js';

export interface CapabilityCheck {
  request: CanonicalRequest;
  /** The protocol the caller spoke. */
  inbound: ProtocolName;
  /** The protocol the provider speaks, if it is one of ours. */
  upstream: ProtocolName | undefined;
  /** Inbound top-level fields that are hints only (`InboundCodec.hintFields`). */
  hintFields: ReadonlySet<string>;
  /** Every top-level field the inbound protocol defines (`InboundCodec.fields`). */
  fields: ApiFields;
  modelId: string;
  capabilities: ModelCapabilities;
}

const unsupported = (feature: string, modelId: string, param: string) => unsupportedFeatureError(feature, modelId, { param });

function partsOf(message: CanonicalMessage) {
  if (message.role !== 'tool') return message.content;
  return message.content.flatMap((result) => [result, ...result.content]);
}

/**
 * Refuses, with a 400 that names the feature and the model, any part of the request the chosen
 * model cannot carry — so nothing is dropped on the way to the provider. A top-level field that is
 * no field of the caller's protocol at all is a 400 `UNKNOWN_FIELD` suggesting the closest one.
 */
export function checkCapabilities(check: CapabilityCheck): void {
  const { request, inbound, upstream, modelId, capabilities } = check;

  if (inbound !== upstream) {
    const extensions = request.extensions?.[inbound];
    for (const field in extensions) {
      if (check.hintFields.has(field)) continue;
      if (!check.fields.known.has(field)) throw unknownFieldError(field, check.fields, modelId);
      throw unsupported(`the '${quoteCallerText(field)}' field`, modelId, field);
    }
  }

  if (request.stream && !capabilities.streaming) throw unsupported('streaming', modelId, 'stream');
  const tools = request.tools ?? [];
  if (tools.some((tool) => tool.type === 'function') && !capabilities.tools) throw unsupported('tools', modelId, 'tools');
  for (const tool of tools) {
    if (tool.type === 'provider-defined' && !capabilities.providerTools.includes(tool.protocol)) {
      throw unsupported(`the '${tool.kind}' tool`, modelId, 'tools');
    }
  }
  const reasoning = request.reasoning;
  if (reasoning && reasoning.mode !== 'disabled' && reasoning.effort !== 'none' && !capabilities.reasoning) {
    throw unsupported('reasoning', modelId, 'reasoning');
  }
  const format = request.responseFormat?.type;
  if ((format === 'json' || format === 'json-schema') && !capabilities.structuredOutput) {
    throw unsupported('structured (JSON) output', modelId, 'response_format');
  }

  for (const message of request.messages) {
    for (const part of partsOf(message)) {
      if (part.type === 'image' && !capabilities.images) throw unsupported('image input', modelId, 'messages');
      if (part.type === 'file' && !capabilities.files) throw unsupported('file input', modelId, 'messages');
      if (part.type === 'audio' && !capabilities.audio) throw unsupported('audio input', modelId, 'messages');
      if (part.type === 'provider-defined' && !capabilities.providerTools.includes(part.protocol)) {
        throw unsupported(`'${part.kind}' content`, modelId, 'messages');
      }
    }
  }
}
