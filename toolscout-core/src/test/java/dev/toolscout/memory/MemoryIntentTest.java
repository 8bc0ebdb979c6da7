package dev.toolscout.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Memory intent and the subject check, on phrasings of requests and questions (docs/MEMORY.md, "Intent"). */
class MemoryIntentTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "Remember that my dog is called Rex|STORE",
                "remember: my locker code is 4512|STORE",
                "Please remember my seat preference is aisle|STORE",
                "Can you remember that I hate olives?|STORE",
                "Note that the standup moved to 10am|STORE",
                "Make a note: Ann is on leave next week|STORE",
                "Don't forget that my passport expires in May|STORE",
                "Keep in mind I'm allergic to shellfish|STORE",
                "I moved to Berlin last month|STORE",
                "Actually, my cat is now called Felix|STORE",
                "Update the memory about my address: 5 Rue Neuve|STORE",
                "From now on answer me in German|STORE",
                // a colleague's phrasings, run from outside before these forms were read (they were not)
                "Store the fact that my boss is named Priya|STORE",
                "Note to self: my cat's vet is Dr. Alvarez|STORE",
                "Actually my cat is called Tim, not Tom|STORE",
                "That's wrong, I prefer window seats now|STORE",
                "My wife's birthday is actually on May 5|STORE",
                "My cat isn't called Tom anymore|STORE",
                "I fly from Geneva, not Zurich|STORE",
                // a colleague's phrasings (issue 32's check from outside)
                "I am not allergic to peanuts anymore|STORE",
                "Scratch that, my car is actually a red Honda Civic|STORE",
                "My cat isn't called Tom, he's called Tim|STORE",
                "My boss's name is Carl, remember it|STORE",
                "The gate code is 4471 - save that for later|STORE",
                "I'm not sure this works anymore?|QUESTION",
                "My printer isn't working, it's jammed|NONE",
                "Sorry, what did you say?|QUESTION",
                "Please delete what you know about my seat preference|FORGET",
                "Erase everything you remember about my old job|FORGET",
                "Forget that my cat is called Tom|FORGET",
                "Please forget my old address|FORGET",
                "Could you forget what I said about Bob?|FORGET",
                "Delete the memory about my wife's birthday|FORGET",
                "Remove that note about the offsite|FORGET",
                "What did I tell you about my car?|RECALL",
                "Do you remember my dog's name?|RECALL",
                "Remind me when my wife's birthday is|RECALL",
                "What do you know about my allergies?|RECALL",
                "Remember when I told you about Lyon?|RECALL",
                "What is my dog's name?|QUESTION",
                "When is my birthday?|QUESTION",
                "who is my manager|QUESTION",
                "According to John, who is his least favorite character?|QUESTION",
                "Don't I have a meeting on Monday?|QUESTION",
                "Send an email to Bob about the budget|NONE",
                "Remind me to call Bob tomorrow|NONE",
                "Delete the file report.txt|NONE",
                "I don't have a cat|NONE",
                "Book me an aisle seat to Rome|NONE",
                "Never mind, forget it|NONE",
                "Actually, what time is it in Tokyo?|QUESTION",
                "Is that wrong?|QUESTION",
                "Send the report to Ann, not Bob|NONE",
            })
    void reads_the_intent_from_the_wording(String message, MemoryIntent intent) {
        assertThat(MemoryIntent.of(message)).isEqualTo(intent);
    }

    @ParameterizedTest(name = "{0} / {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "What is my dog's name?|My cat is called Tom.|my dog",
                "When is my birthday?|My wife's birthday is on May 3.|only as someone else's",
                "What did Jon make a limited edition line of?|Gina made a limited edition line of clothing.|Jon",
                "What is my wife's name?|My wife's birthday is on May 3.|wife's name",
                "Where does my sister live?|I live in Lyon, France.|my sister",
                "Which seats does my wife prefer on flights?|I prefer aisle seats on flights.|wife",
                "How old is my cat?|My cat is called Tom.|does not say old",
                // LoCoMo conv-41: four fifths of the question's words, and "host" is not among the memory's
                "What did John host for the veterans?|John organized a small party for some veterans.|does not say host",
            })
    void a_memory_about_another_subject_does_not_answer(String question, String memory, String named) {
        assertThat(MemorySubjects.mismatch(question, memory)).get().asString().contains(named);
    }

    @ParameterizedTest(name = "{0} / {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "What's my dog called?|My dog is called Rex and he is a beagle.",
                "What is my dog's name?|My dog is called Rex and he is a beagle.",
                "When is my wife's birthday?|My wife's birthday is on the 14th of June.",
                "Which seats do I prefer on flights?|I prefer aisle seats on flights.",
                "What did Gina make a limited edition line of?|Gina made a limited edition line of clothing.",
                "What is my favourite programming language?|My favourite programming language is Rust.",
                "When does my passport expire?|My passport expires in November 2027.",
                // another form of the same word: past, gerund, plural
                "When did Maria join a gym?|Maria recently joined a gym and sticks to her workout routine.",
                "What is Jon planning for his studio?|Jon plans a grand opening for his studio.",
                "Which hobbies did Andrew pick up?|Andrew picked up two new hobby projects.",
            })
    void a_memory_about_the_same_subject_passes(String question, String memory) {
        assertThat(MemorySubjects.mismatch(question, memory)).isEmpty();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "What might John's degree be in?|true",
                "Would Melanie enjoy the song The Four Seasons by Vivaldi?|true",
                "What is Maria likely to do after the move?|true",
                "Would you remind me what my wife's birthday is?|false",
                "What is my dog's name?|false",
                "Where would I find my passport?|false",
            })
    void a_question_that_asks_for_a_guess_is_told_apart(String question, boolean guess) {
        assertThat(MemorySubjects.asksForGuess(question)).isEqualTo(guess);
    }
}
