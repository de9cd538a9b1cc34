/**
 * The stop signal a simulator ends a conversation with when none is given (τ²-bench's). Apart
 * from the TypeBox definitions (conversation.ts), so the runner reads it without loading TypeBox.
 */
export const DEFAULT_USER_STOP = "###STOP###";
