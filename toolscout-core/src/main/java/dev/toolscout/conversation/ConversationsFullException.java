package dev.toolscout.conversation;

/**
 * A new conversation was refused because the store already keeps {@link ConversationLimits#maxConversations()}
 * live conversations. Nothing was changed; the request can be retried once older conversations expire or are
 * forgotten, which is why a server answers it as unavailable (HTTP 503), not as a bad request or its own fault.
 */
public final class ConversationsFullException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    ConversationsFullException(String message) {
        super(message);
    }
}
