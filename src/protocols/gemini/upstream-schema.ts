import { z } from 'zod';

/*
 * Google Gemini API (generativelanguage v1beta) `:generateContent` / `:streamGenerateContent`.
 * Request types are what the gateway sends; response schemas are lenient (every object loose,
 * every field optional) because upstream bodies grow new fields all the time.
 */

export interface GeminiInlineData {
  mimeType: string;
  data: string;
}

export interface GeminiFileData {
  mimeType: string;
  fileUri: string;
}

/** A `Part`: exactly one data field, plus optional `thought` / `thoughtSignature` metadata. */
export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: GeminiInlineData;
  fileData?: GeminiFileData;
  functionCall?: { name: string; args: Record<string, unknown>; id?: string };
  functionResponse?: {
    name: string;
    response: Record<string, unknown>;
    id?: string;
    parts?: GeminiPart[];
  };
}

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parametersJsonSchema?: Record<string, unknown>;
}

export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

export type GeminiFunctionCallingMode = 'AUTO' | 'ANY' | 'NONE' | 'VALIDATED';

export interface GeminiToolConfig {
  functionCallingConfig: { mode: GeminiFunctionCallingMode; allowedFunctionNames?: string[] };
}

export type GeminiThinkingLevel = 'MINIMAL' | 'LOW' | 'MEDIUM' | 'HIGH';

export interface GeminiThinkingConfig {
  thinkingBudget?: number;
  thinkingLevel?: GeminiThinkingLevel;
  includeThoughts?: boolean;
}

export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  responseMimeType?: string;
  responseJsonSchema?: Record<string, unknown>;
  thinkingConfig?: GeminiThinkingConfig;
}

/** The body of `POST /models/{model}:generateContent` (the model is in the path, not the body). */
export interface GeminiRequest {
  contents: GeminiContent[];
  systemInstruction?: { parts: Array<{ text: string }> };
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
  generationConfig?: GeminiGenerationConfig;
}

const count = z.number().nullish();

export const GeminiWirePartSchema = z.looseObject({
  text: z.string().nullish(),
  thought: z.boolean().nullish(),
  thoughtSignature: z.string().nullish(),
  functionCall: z
    .looseObject({
      name: z.string(),
      args: z.record(z.string(), z.unknown()).nullish(),
      id: z.string().nullish(),
    })
    .nullish(),
});
export type GeminiWirePart = z.infer<typeof GeminiWirePartSchema>;

export const GeminiUsageMetadataSchema = z.looseObject({
  promptTokenCount: count,
  cachedContentTokenCount: count,
  toolUsePromptTokenCount: count,
  candidatesTokenCount: count,
  thoughtsTokenCount: count,
  totalTokenCount: count,
});
export type GeminiUsageMetadata = z.infer<typeof GeminiUsageMetadataSchema>;

export const GeminiErrorObjectSchema = z.looseObject({
  code: z.number().nullish(),
  message: z.string().nullish(),
  status: z.string().nullish(),
  details: z.array(z.looseObject({ '@type': z.string().nullish() })).nullish(),
});

/** A `GenerateContentResponse`: a whole answer, or one streamed chunk of it (or an in-band error frame). */
export const GeminiResponseSchema = z.looseObject({
  candidates: z
    .array(
      z.looseObject({
        content: z.looseObject({ role: z.string().nullish(), parts: z.array(GeminiWirePartSchema).nullish() }).nullish(),
        finishReason: z.string().nullish(),
        finishMessage: z.string().nullish(),
        index: z.number().nullish(),
      }),
    )
    .nullish(),
  promptFeedback: z.looseObject({ blockReason: z.string().nullish(), blockReasonMessage: z.string().nullish() }).nullish(),
  usageMetadata: GeminiUsageMetadataSchema.nullish(),
  modelVersion: z.string().nullish(),
  responseId: z.string().nullish(),
  error: GeminiErrorObjectSchema.nullish(),
});
export type GeminiResponse = z.infer<typeof GeminiResponseSchema>;
