// One official client per inbound protocol (openai for Chat and Responses, @anthropic-ai/sdk for Messages), folded to one shape.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { TEST_KEY, type RunningGateway } from '../start-gateway.js';
import { MATRIX, type Inbound, type ToolChoiceForm, REASONING_REQUEST } from './definitions.js';

interface Turn {
  text: string;
  reasoning: string;
  toolCalls: Array<{ id: string; name: string; arguments: unknown }>;
  /** Chat `finish_reason`, Responses `status[/incomplete reason]`, Messages `stop_reason`. */
  finish: string;
  /** Messages `stop_sequence`; `null` elsewhere. */
  stopSequence: string | null;
  usage: { input: number; output: number; cached: number; reasoning: number };
}

/** Per-call options: the features a cell switches on, in the caller's own words. */
interface Ask {
  tools?: boolean;
  toolChoice?: ToolChoiceForm;
  stop?: boolean;
  maxTokens?: boolean;
  format?: 'json-schema' | 'json-object';
  reasoning?: boolean;
}

type Body = Record<string, unknown>;

const toolParameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const;

function chatFields(ask: Ask): Body {
  const choice = { auto: 'auto', required: 'required', none: 'none', named: { type: 'function', function: { name: MATRIX.toolName } } };
  return {
    ...(ask.tools ? { tools: [{ type: 'function', function: { name: MATRIX.toolName, parameters: toolParameters } }] } : {}),
    ...(ask.toolChoice ? { tool_choice: choice[ask.toolChoice] } : {}),
    ...(ask.stop ? { stop: [...MATRIX.stop] } : {}),
    ...(ask.maxTokens ? { max_completion_tokens: MATRIX.maxTokens } : {}),
    ...(ask.format === 'json-schema'
      ? { response_format: { type: 'json_schema', json_schema: { name: 'weather', schema: MATRIX.schema, strict: true } } }
      : ask.format === 'json-object'
        ? { response_format: { type: 'json_object' } }
        : {}),
    ...(ask.reasoning ? REASONING_REQUEST.chat : {}),
  };
}

function responsesFields(ask: Ask): Body {
  const choice = { auto: 'auto', required: 'required', none: 'none', named: { type: 'function', name: MATRIX.toolName } };
  return {
    ...(ask.tools ? { tools: [{ type: 'function', name: MATRIX.toolName, parameters: toolParameters, strict: false }] } : {}),
    ...(ask.toolChoice ? { tool_choice: choice[ask.toolChoice] } : {}),
    // Responses has no stop field: a client that sends one anyway.
    ...(ask.stop ? { stop: [...MATRIX.stop] } : {}),
    ...(ask.maxTokens ? { max_output_tokens: MATRIX.maxTokens } : {}),
    ...(ask.format === 'json-schema'
      ? { text: { format: { type: 'json_schema', name: 'weather', schema: MATRIX.schema, strict: true } } }
      : ask.format === 'json-object'
        ? { text: { format: { type: 'json_object' } } }
        : {}),
    ...(ask.reasoning ? REASONING_REQUEST.responses : {}),
  };
}

function messagesFields(ask: Ask): Body {
  const choice = {
    auto: { type: 'auto' },
    required: { type: 'any' },
    none: { type: 'none' },
    named: { type: 'tool', name: MATRIX.toolName },
  };
  return {
    max_tokens: 1024,
    ...(ask.tools ? { tools: [{ name: MATRIX.toolName, input_schema: toolParameters }] } : {}),
    ...(ask.toolChoice ? { tool_choice: choice[ask.toolChoice] } : {}),
    ...(ask.stop ? { stop_sequences: [...MATRIX.stop] } : {}),
    ...(ask.format === 'json-schema' ? { output_config: { format: { type: 'json_schema', schema: MATRIX.schema } } } : {}),
    // Messages has no JSON mode without a schema: a client that asks for one anyway.
    ...(ask.format === 'json-object' ? { output_config: { format: { type: 'json_object' } } } : {}),
    ...(ask.reasoning ? REASONING_REQUEST.messages : {}),
    ...(ask.maxTokens ? { max_tokens: MATRIX.maxTokens } : {}),
  };
}

/** One official client per inbound protocol, folded to the same shape; `headers` go with every request (e.g. a distinct User-Agent). */
export function createClients(gateway: RunningGateway, headers: Record<string, string> = {}) {
  const openai = new OpenAI({ apiKey: TEST_KEY, baseURL: gateway.openAIBaseURL, maxRetries: 0, defaultHeaders: headers });
  const anthropic = new Anthropic({ apiKey: TEST_KEY, baseURL: gateway.root, maxRetries: 0, defaultHeaders: headers });

  async function chat(model: string, stream: boolean, messages: OpenAI.Chat.ChatCompletionMessageParam[], ask: Ask = {}) {
    const body = { model, messages, ...chatFields(ask) } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
    let streamedReasoning = '';
    let completion: OpenAI.Chat.ChatCompletion;
    if (stream) {
      const events = openai.chat.completions.stream({ ...body, stream: true, stream_options: { include_usage: true } });
      // The SDK keeps only the last `reasoning_content` fragment; a real client adds them up.
      for await (const chunk of events) {
        const delta = chunk.choices[0]?.delta as { reasoning_content?: string } | undefined;
        streamedReasoning += delta?.reasoning_content ?? '';
      }
      completion = await events.finalChatCompletion();
    } else {
      completion = await openai.chat.completions.create(body);
    }
    const message = completion.choices[0]?.message as (OpenAI.Chat.ChatCompletionMessage & { reasoning_content?: string }) | undefined;
    if (message !== undefined && stream && streamedReasoning !== '') message.reasoning_content = streamedReasoning;
    const details = completion.usage?.completion_tokens_details;
    const turn: Turn = {
      text: message?.content ?? '',
      reasoning: message?.reasoning_content ?? '',
      toolCalls: (message?.tool_calls ?? []).flatMap((call) =>
        call.type === 'function' ? [{ id: call.id, name: call.function.name, arguments: JSON.parse(call.function.arguments) }] : [],
      ),
      finish: completion.choices[0]?.finish_reason ?? '',
      stopSequence: null,
      usage: {
        input: completion.usage?.prompt_tokens ?? -1,
        output: completion.usage?.completion_tokens ?? -1,
        cached: completion.usage?.prompt_tokens_details?.cached_tokens ?? -1,
        reasoning: details?.reasoning_tokens ?? -1,
      },
    };
    return { turn, message };
  }

  async function responses(model: string, stream: boolean, input: OpenAI.Responses.ResponseInput, ask: Ask = {}) {
    const body = { model, input, instructions: MATRIX.system, ...responsesFields(ask) };
    const response = stream
      ? await openai.responses.stream(body as OpenAI.Responses.ResponseCreateParamsStreaming).finalResponse()
      : await openai.responses.create(body as OpenAI.Responses.ResponseCreateParamsNonStreaming);
    const turn: Turn = {
      text: response.output_text,
      reasoning: response.output
        .flatMap((item) =>
          item.type === 'reasoning' ? [...item.summary.map((part) => part.text), ...(item.content ?? []).map((part) => part.text)] : [],
        )
        .join(''),
      toolCalls: response.output.flatMap((item) =>
        item.type === 'function_call' ? [{ id: item.call_id, name: item.name, arguments: JSON.parse(item.arguments) }] : [],
      ),
      finish: [response.status ?? '', response.incomplete_details?.reason ?? ''].filter((word) => word !== '').join('/'),
      stopSequence: null,
      usage: {
        input: response.usage?.input_tokens ?? -1,
        output: response.usage?.output_tokens ?? -1,
        cached: response.usage?.input_tokens_details.cached_tokens ?? -1,
        reasoning: response.usage?.output_tokens_details.reasoning_tokens ?? -1,
      },
    };
    return { turn, output: response.output };
  }

  async function messages(model: string, stream: boolean, history: Anthropic.MessageParam[], ask: Ask = {}) {
    const body = { model, system: MATRIX.system, messages: history, ...messagesFields(ask) } as Anthropic.MessageCreateParamsNonStreaming;
    const message = stream ? await anthropic.messages.stream(body).finalMessage() : await anthropic.messages.create(body);
    const usage = message.usage as Anthropic.Usage & { output_tokens_details?: { thinking_tokens?: number } | null };
    const turn: Turn = {
      text: message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''),
      reasoning: message.content.flatMap((block) => (block.type === 'thinking' ? [block.thinking] : [])).join(''),
      toolCalls: message.content.flatMap((block) =>
        block.type === 'tool_use' ? [{ id: block.id, name: block.name, arguments: block.input }] : [],
      ),
      finish: message.stop_reason ?? '',
      stopSequence: message.stop_sequence,
      usage: {
        // Anthropic input excludes the cache: add it back to compare in canonical terms.
        input: usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0),
        output: usage.output_tokens,
        cached: usage.cache_read_input_tokens ?? -1,
        reasoning: usage.output_tokens_details?.thinking_tokens ?? -1,
      },
    };
    return { turn, content: message.content };
  }

  /** A question (after `history` turns, if any), with the features of `ask`. */
  async function ask(inbound: Inbound, model: string, stream: boolean, options: Ask = {}, history: readonly string[] = []): Promise<Turn> {
    const roleOf = (index: number) => (index % 2 === 0 ? ('user' as const) : ('assistant' as const));
    if (inbound === 'chat') {
      const earlier = history.map((text, index): OpenAI.Chat.ChatCompletionMessageParam => ({ role: roleOf(index), content: text }));
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
        { role: 'system', content: MATRIX.system },
        ...earlier,
        { role: 'user', content: MATRIX.question },
      ];
      return (await chat(model, stream, messages, options)).turn;
    }
    if (inbound === 'responses') {
      const earlier = history.map((text, index): OpenAI.Responses.ResponseInputItem => ({ role: roleOf(index), content: text }));
      return (await responses(model, stream, [...earlier, { role: 'user', content: MATRIX.question }], options)).turn;
    }
    const earlier = history.map((text, index): Anthropic.MessageParam => ({ role: roleOf(index), content: text }));
    return (await messages(model, stream, [...earlier, { role: 'user', content: MATRIX.question }], options)).turn;
  }

  /**
   * A question with the tool; every call of the answer gets a result (`results[i]`) and the
   * conversation goes back whole, as the client returned it (reasoning included).
   */
  async function toolRoundTrip(
    inbound: Inbound,
    model: string,
    stream: boolean,
    results: readonly string[] = [MATRIX.toolResult],
    options: Ask = {},
  ): Promise<{ first: Turn; second: Turn }> {
    const ask: Ask = { ...options, tools: true };
    if (inbound === 'chat') {
      const history: OpenAI.Chat.ChatCompletionMessageParam[] = [
        { role: 'system', content: MATRIX.system },
        { role: 'user', content: MATRIX.question },
      ];
      const first = await chat(model, stream, history, ask);
      history.push(first.message!);
      first.turn.toolCalls.forEach((call, index) => history.push({ role: 'tool', tool_call_id: call.id, content: results[index] ?? '' }));
      return { first: first.turn, second: (await chat(model, stream, history, ask)).turn };
    }
    if (inbound === 'responses') {
      const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: MATRIX.question }];
      const first = await responses(model, stream, input, ask);
      input.push(...(first.output as OpenAI.Responses.ResponseInputItem[]));
      first.turn.toolCalls.forEach((call, index) =>
        input.push({ type: 'function_call_output', call_id: call.id, output: results[index] ?? '' }),
      );
      return { first: first.turn, second: (await responses(model, stream, input, ask)).turn };
    }
    const history: Anthropic.MessageParam[] = [{ role: 'user', content: MATRIX.question }];
    const first = await messages(model, stream, history, ask);
    history.push(
      { role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] },
      {
        role: 'user',
        content: first.turn.toolCalls.map((call, index) => ({
          type: 'tool_result' as const,
          tool_use_id: call.id,
          content: results[index] ?? '',
        })),
      },
    );
    return { first: first.turn, second: (await messages(model, stream, history, ask)).turn };
  }

  /** A question with a base64 image and, unless skipped, an image URL. */
  async function askWithImages(inbound: Inbound, model: string, withUrl: boolean): Promise<Turn> {
    const data = `data:image/png;base64,${MATRIX.pngBase64}`;
    if (inbound === 'chat') {
      const parts: OpenAI.Chat.ChatCompletionContentPart[] = [
        { type: 'text', text: 'What is in these pictures?' },
        { type: 'image_url', image_url: { url: data } },
        ...(withUrl ? [{ type: 'image_url' as const, image_url: { url: MATRIX.imageUrl } }] : []),
      ];
      return (await chat(model, false, [{ role: 'user', content: parts }])).turn;
    }
    if (inbound === 'responses') {
      const parts: OpenAI.Responses.ResponseInputContent[] = [
        { type: 'input_text', text: 'What is in these pictures?' },
        { type: 'input_image', image_url: data, detail: 'auto' },
        ...(withUrl ? [{ type: 'input_image' as const, image_url: MATRIX.imageUrl, detail: 'auto' as const }] : []),
      ];
      return (await responses(model, false, [{ role: 'user', content: parts }])).turn;
    }
    const blocks: Anthropic.ContentBlockParam[] = [
      { type: 'text', text: 'What is in these pictures?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: MATRIX.pngBase64 } },
      ...(withUrl ? [{ type: 'image' as const, source: { type: 'url' as const, url: MATRIX.imageUrl } }] : []),
    ];
    return (await messages(model, false, [{ role: 'user', content: blocks }])).turn;
  }

  return { ask, toolRoundTrip, askWithImages };
}
