package dev.toolscout.memory;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What a message asks of memory, read from its wording alone, whatever the catalog (docs/MEMORY.md, "Intent"): a
 * request to store or correct something ("Remember that ...", "Note: ...", "I moved to ..."), to forget something
 * ("Forget that ...", "Delete the memory about ..."), to recall what was told ("What did I tell you about ...?"), a
 * question, or none of these.
 *
 * <p>The router answers from memory only a {@link #QUESTION} or a {@link #RECALL}: answering a request to store or
 * forget with the stored fact is never what was asked. The selector offers {@link #tool()} for a message with a memory
 * intent. Stateless and thread-safe.
 */
public enum MemoryIntent {
    /** Store something new or correct something stored: {@code memory__store}. */
    STORE(MemoryTools.STORE),
    /** Forget something stored: {@code memory__forget} (the model finds the id with the memory offered or a search). */
    FORGET(MemoryTools.FORGET),
    /** Asks what was told: {@code memory__search}; a question, so a memory may answer it directly. */
    RECALL(MemoryTools.SEARCH),
    /** Any other question: a memory may answer it. */
    QUESTION(null),
    /** Anything else (a request for an action, a statement): never answered from memory. */
    NONE(null);

    private final String tool;

    MemoryIntent(String tool) {
        this.tool = tool;
    }

    /** The memory tool this intent needs, or {@code null} for none. */
    public String tool() {
        return tool;
    }

    /** Whether a stored memory may answer a message of this intent (a question, not a request). */
    public boolean answerable() {
        return this == QUESTION || this == RECALL;
    }

    // what is in front of the request itself: "please", "hey", "ok so", "can you", "could you please", ...
    private static final String LEAD = "^(?:(?:please|pls|hey|hi|ok|okay|so|and|also|oh|btw|by the way)[,!]?\\s+)*"
            + "(?:(?:can|could|would|will)\\s+you\\s+(?:please\\s+)?|i\\s+(?:want|need|would like)\\s+you\\s+to\\s+"
            + "|(?:please\\s+)?)";
    private static final Pattern FORGET_P = Pattern.compile(LEAD
            + "(?:forget\\b(?!\\s+(?:it|about it)\\s*$)|stop remembering\\b|no longer remember\\b|unremember\\b"
            + "|(?:delete|remove|erase|drop|wipe|clear)\\s+(?:(?:the|that|this|my|your|all)\\s+)*"
            + "(?:memor(?:y|ies)|note|notes|fact|facts|what i (?:told|said)"
            + "|(?:what|everything|all)\\s+you\\s+(?:know|remember|have|stored|saved))\\b)");
    private static final Pattern STORE_P = Pattern.compile(LEAD
            + "(?:remember\\b(?!\\s+(?:when|what|who|where|which|how|why|if|whether)\\b)|memori[sz]e\\b"
            + "|(?:make|take)\\s+(?:a\\s+)?note\\b|note\\s*(?:that|down|this|:)|jot\\s+down\\b"
            + "|keep\\s+in\\s+mind\\b|bear\\s+in\\s+mind\\b|(?:don'?t|do not|never)\\s+forget\\b"
            + "|note\\s+to\\s+(?:self|yourself)\\b"
            + "|(?:save|store|add)\\s+(?:(?:that|this|it)\\b|(?:a|the|to)\\s+(?:memory|note|fact)\\b)"
            + "|(?:update|correct|change)\\s+(?:(?:the|that|this|my|your)\\s+)*(?:memory|memories|note|notes)\\b"
            + "|(?:update|correction)\\s*:|from now on\\b|for future reference\\b|fyi\\b)");
    // a first-person statement of a change: a correction of what may be stored
    private static final Pattern CHANGE_P =
            Pattern.compile("^(?:(?:scratch that|correction|sorry|oops|wait)[,.!:;]?\\s+)?"
                    + "(?:actually,?\\s+)?(?:i\\s+(?:have\\s+|'ve\\s+|just\\s+)?"
                    + "(?:moved|relocated|changed|switched|got married|got divorced|no longer|don'?t\\s+\\w+\\s+anymore)\\b"
                    + "|i'?m\\s+no longer\\b|i am no longer\\b|my\\s+[\\w' ]{1,40}?\\s+(?:is|are)\\s+now\\b"
                    // "I am not allergic to peanuts anymore", "My cat isn't called Tom, he's called Tim"
                    + "|i(?:'m|\\s+am)\\s+not\\b[^?]*\\b(?:anymore|any more)\\b"
                    // (not "My printer isn't working, it's jammed": a state, not a stored fact)
                    + "|my\\s+[\\w' ]{1,40}?\\s+(?:isn't|is not|aren't|are not|wasn't|was not)\\s+(?![\\w']+ing\\b)[^?]*,\\s*"
                    + "(?:he's|she's|it's|they're|he is|she is|it is|they are)\\b"
                    + "|my\\s+[\\w' ]{1,40}?\\s+(?:is|are)(?:n't| not)(?:\\s+[\\w']+){1,4}\\s+(?:anymore|any more)\\b"
                    + "|my\\s+[\\w' ]{1,40}?\\s+(?:is|are|was|were)\\s+actually\\b|my\\s+new\\s+\\w+)"
                    // "Actually my cat is called Tim", "That's wrong, I prefer window seats now", "..., not Tom"
                    + "|^actually,?\\s+(?:i|i'm|my)\\b|^(?:no,?\\s+)?(?:that's|that is|this is)\\s+(?:wrong|not right|incorrect"
                    + "|outdated|out of date)\\b|^(?:i|my)\\b[^?]*,\\s+not\\s+[\\w']+[.!]?$");
    // the request to keep it after the fact: "My boss's name is Carl, remember it", "..., save that for later"
    private static final Pattern STORE_AFTER_P = Pattern.compile(
            "[,;.!-]\\s*(?:please\\s+)?(?:remember|note|save|store|memori[sz]e|keep)\\s+(?:it|that|this)"
                    + "(?:\\s+(?:for\\s+(?:me|later|next time)|in mind))?(?:,?\\s+please)?[.!]?$");
    private static final Pattern RECALL_P = Pattern.compile(
            "(?:\\bwhat\\s+(?:did|have|had)\\s+i\\s+(?:tell|told|say|said"
                    + "|mention|mentioned|share|shared)\\b|\\bwhat\\s+do\\s+you\\s+(?:know|remember)\\b"
                    + "|\\bdo\\s+you\\s+(?:still\\s+)?remember\\b|\\bremind\\s+me\\s+(?:what|when|where|who|which|how|of|about)\\b|\\bdid\\s+i\\s+(?:ever\\s+)?"
                    + "(?:tell|mention)\\b|\\bwhat\\s+(?:is|are)\\s+in\\s+(?:my|your)\\s+(?:memory|memories|notes)\\b"
                    + "|^(?:please\\s+)?(?:recall|look\\s+up)\\b|\\bremember\\s+(?:when|what|who|where|which|how|why|if|whether)\\b)");
    private static final Pattern QUESTION_P =
            Pattern.compile("^(?:what|what's|whats|when|when's|where|where's|who|who's"
                    + "|whom|whose|which|how|how's|why|is|are|am|was|were|do|does|did|can|could|will|would|should|shall"
                    + "|have|has|had|may|might|must|isn't|aren't|don't|doesn't|didn't|wasn't|weren't|haven't|hasn't"
                    + "|according|tell me|in which|on which|at what|for how|by when|since when)\\b");

    /**
     * The intent of {@code message}, by its wording (lowercased with {@link Locale#ROOT}, curly apostrophes read
     * as straight ones).
     */
    public static MemoryIntent of(String message) {
        if (message == null) {
            return NONE;
        }
        String m =
                message.strip().toLowerCase(Locale.ROOT).replace('\u2019', '\'').replace('\u2018', '\'');
        if (m.isEmpty()) {
            return NONE;
        }
        if (FORGET_P.matcher(m).find()) {
            return FORGET;
        }
        if (RECALL_P.matcher(m).find()) {
            return RECALL;
        }
        // a statement of a change is a correction; asked, it is a question ("I'm not sure this works anymore?")
        boolean change = !m.endsWith("?") && CHANGE_P.matcher(m).find();
        if (STORE_P.matcher(m).find() || change || STORE_AFTER_P.matcher(m).find()) {
            return STORE;
        }
        if (m.endsWith("?") || QUESTION_P.matcher(m).find()) {
            return QUESTION;
        }
        return NONE;
    }
}
