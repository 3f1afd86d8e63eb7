import { hashString53 } from './string-hash.js';

/**
 * OpenAI's `safety_identifier` (Chat and Responses) takes at most 64 characters; a longer
 * end-user id (Claude Code sends a JSON string) is replaced by a stable hash of it.
 */
export function encodeOpenAISafetyIdentifier(userId: string): string {
  return userId.length <= 64 ? userId : `user_sy${hashString53(`msg:${userId}`).toString(16).padStart(14, '0')}`;
}
