package dev.toolscout.selection;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class QueryClausesTest {
    @Test
    void sentences_semicolons_and_connectives_split_a_request() {
        assertThat(QueryClauses.split("Find flights to Oslo for Friday. Book the cheapest one; email me the receipt"))
                .containsExactly("Find flights to Oslo for Friday", "Book the cheapest one", "email me the receipt");
        assertThat(QueryClauses.split("convert the video to mp4 and then upload it to the drive"))
                .containsExactly("convert the video to mp4", "upload it to the drive");
        assertThat(QueryClauses.split("Check the weather in Rome THEN add a reminder for the trip"))
                .containsExactly("Check the weather in Rome", "add a reminder for the trip");
        assertThat(QueryClauses.split("translate this letter into French and also count its words"))
                .containsExactly("translate this letter into French", "count its words");
    }

    @Test
    void a_connective_opening_a_sentence_is_not_part_of_the_clause() {
        assertThat(QueryClauses.split("Create the event for Friday. Then check the forecast. Also book a table."))
                .containsExactly("Create the event for Friday", "check the forecast", "book a table");
    }

    @Test
    void plain_and_and_commas_do_not_split() {
        assertThat(QueryClauses.split("download and convert the video, then nothing"))
                .isEmpty(); // "then nothing": 2 words
        assertThat(QueryClauses.split("search emails from Anna and Bob, newest first"))
                .isEmpty();
    }

    @Test
    void numbers_and_dates_do_not_count_as_words_of_a_clause() {
        // "Today is 2022-03-01": two words with a letter, a bare value, not a request of its own
        assertThat(QueryClauses.split("Switch off my smart bulb at 10 pm tonight. Today is 2022-03-01."))
                .isEmpty();
        assertThat(QueryClauses.split("Switch off the bulb at 10 pm. Then set an alarm for 7am."))
                .containsExactly("Switch off the bulb at 10 pm", "set an alarm for 7am");
    }

    @Test
    void a_single_clause_or_short_fragments_leave_the_message_whole() {
        assertThat(QueryClauses.split("send an email to the team")).isEmpty();
        assertThat(QueryClauses.split("Send an email to the team. Thanks!")).isEmpty(); // "Thanks" is 1 word
        assertThat(QueryClauses.split("Hi. Ok. Send the weekly report to Anna."))
                .isEmpty();
        assertThat(QueryClauses.split("   ")).isEmpty();
    }

    @Test
    void up_to_eight_clauses_stay_apart_and_more_join_the_shortest_neighbours() {
        String five = "Open the sales report now. Sum the totals please. Plot them by month. "
                + "Write a short summary of it. Email the summary to finance today.";
        assertThat(QueryClauses.split(five)).hasSize(5);
        // 5, 4, 4, 6, 6, 5, 5, 5, 5 words: nine clauses, one too many; the 4 + 4 pair is the shortest
        String nine = five + " Archive the old report file. Book a review meeting Monday. Invite the whole sales team."
                + " Print two copies for Anna.";
        assertThat(QueryClauses.split(nine))
                .hasSize(QueryClauses.MAX_CLAUSES)
                .containsExactly(
                        "Open the sales report now",
                        "Sum the totals please Plot them by month",
                        "Write a short summary of it",
                        "Email the summary to finance today",
                        "Archive the old report file",
                        "Book a review meeting Monday",
                        "Invite the whole sales team",
                        "Print two copies for Anna");
    }

    @Test
    void the_split_point_is_a_whole_word() {
        // "then" and "also" inside words (authentication, alsoran) are not connectives
        assertThat(QueryClauses.split("run the authentication check for the alsoran account"))
                .isEmpty();
    }

    /**
     * Hostile shapes at 64 KB and 1 MB: long runs of white space before a connective, of punctuation, of
     * one-word sentences (all dropped, so reading never stops early), of connectives, of "and" without
     * "then". The splitter may read each character only a few times, the same few at both sizes: a
     * quadratic splitter reads a 1 MB run about half a million times per character.
     */
    @Test
    void splitting_reads_each_character_a_bounded_number_of_times_at_any_length() {
        for (int size : new int[] {64 * 1024, 1024 * 1024}) {
            List<String> messages = List.of(
                    "find the flights" + " ".repeat(size) + "then book the cheapest one",
                    "find the flights" + "\t".repeat(size) + "and also book the cheapest",
                    "send the report " + ".,;:!? ".repeat(size / 8) + " to the whole team today",
                    "Ok. ".repeat(size / 4),
                    "then ".repeat(size / 5),
                    "cats and ".repeat(size / 9) + "dogs",
                    "x" + " and then".repeat(size / 9),
                    "a".repeat(size));
            for (String m : messages) {
                CountingText text = new CountingText(m);
                List<String> clauses = QueryClauses.split(text);
                assertThat(clauses).hasSizeLessThanOrEqualTo(QueryClauses.MAX_CLAUSES);
                assertThat(text.reads.get())
                        .as("characters read for %s... of %d", m.substring(0, 20), m.length())
                        .isLessThanOrEqualTo(12L * m.length());
            }
        }
    }

    @Test
    void a_message_of_many_sentences_is_read_only_up_to_the_clause_cap() {
        String m = "Open the sales report now. ".repeat(40_000); // 1 MB, 40,000 clauses
        CountingText text = new CountingText(m);
        assertThat(QueryClauses.split(text)).hasSize(QueryClauses.MAX_CLAUSES);
        // the first MAX_CANDIDATES sentences are read, not the other 39,968
        assertThat(text.reads.get()).isLessThan(100L * 27 * QueryClauses.MAX_CANDIDATES);
    }

    @Test
    void clauses_past_the_cap_are_not_split_from_the_message() {
        StringBuilder m = new StringBuilder();
        for (int i = 0; i < QueryClauses.MAX_CANDIDATES + 5; i++) {
            m.append("Open report number ").append(i).append(" please. ");
        }
        List<String> clauses = QueryClauses.split(m.toString());
        assertThat(clauses).hasSize(QueryClauses.MAX_CLAUSES);
        assertThat(String.join(" ", clauses))
                .contains("number 0 please")
                .contains("number " + (QueryClauses.MAX_CANDIDATES - 1) + " please")
                .doesNotContain("number " + QueryClauses.MAX_CANDIDATES + " please");
    }

    /** A message that counts how often its characters are read. */
    private static final class CountingText implements CharSequence {
        final String text;
        final int from;
        final int to;
        final AtomicLong reads;

        CountingText(String text) {
            this(text, 0, text.length(), new AtomicLong());
        }

        private CountingText(String text, int from, int to, AtomicLong reads) {
            this.text = text;
            this.from = from;
            this.to = to;
            this.reads = reads;
        }

        @Override
        public int length() {
            return to - from;
        }

        @Override
        public char charAt(int index) {
            reads.incrementAndGet();
            return text.charAt(from + index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new CountingText(text, from + start, from + end, reads);
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder(length());
            for (int i = 0; i < length(); i++) {
                b.append(charAt(i));
            }
            return b.toString();
        }
    }
}
