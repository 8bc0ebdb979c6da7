package dev.toolscout.selection;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.indexing.ToolText;
import dev.toolscout.model.ToolSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReasonsTest {
    @Test
    void matched_words_are_the_query_words_whose_stem_a_tool_word_has_in_query_order_at_most_three() {
        ToolSpec spec = ToolSpec.builder("calendar__create_event", "Creates an EVENT in the user's Calendar at a time.")
                .build();
        List<String> asked = Reasons.queryWords("Please schedule events in my calendar for the launch timeline");
        assertThat(Reasons.matchedWords(spec, asked)).containsExactly("events", "calendar");
    }

    /** Randomized against the former way (every tool word's stem into a set), whose results the new scan keeps. */
    @Test
    void matched_words_equal_a_set_of_every_tool_words_stem_for_random_texts() {
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        String[] pool = {
            "Event",
            "events",
            "CALENDAR",
            "calendars",
            "send",
            "Sending",
            "mail",
            "e-mail",
            "İstanbul",
            "istanbul",
            "Straße",
            "STRASSE",
            "café",
            "CAFÉ",
            "x",
            "ab",
            "abc",
            "Schedule",
            "schedules",
            "ünïcode",
            "Ünïcode",
            "42",
            "v2",
            "data_set",
            "DataSet",
            "ǅemal",
            "ΣΊΣΥΦΟΣ",
            "σίσυφος"
        };
        for (int round = 0; round < 2000; round++) {
            String description = words(r, pool, 1 + r.nextInt(12));
            ObjectNode params = JsonNodeFactory.instance.objectNode();
            params.putObject("properties")
                    .putObject("p_" + r.nextInt(5))
                    .put("description", words(r, pool, r.nextInt(4)));
            ToolSpec spec = ToolSpec.builder("src__tool_" + r.nextInt(3), description)
                    .parameters(params)
                    .build();
            List<String> asked = Reasons.queryWords(words(r, pool, 1 + r.nextInt(8)));
            assertThat(Reasons.matchedWords(spec, asked))
                    .as("seed %d, round %d", seed, round)
                    .isEqualTo(formerMatchedWords(spec, asked));
        }
    }

    private static String words(Random r, String[] pool, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : r.nextBoolean() ? " " : ", ").append(pool[r.nextInt(pool.length)]);
        }
        return b.toString();
    }

    private static List<String> formerMatchedWords(ToolSpec spec, List<String> queryWords) {
        Set<String> toolStems = new HashSet<>();
        for (String text : List.of(
                ToolText.nameWords(spec), spec.description(), ToolText.labels(spec), ToolText.parameterText(spec))) {
            for (String w : lowerWords(text)) {
                toolStems.add(w.length() > 5 ? w.substring(0, 5) : w);
            }
        }
        List<String> out = new ArrayList<>();
        for (String w : queryWords) {
            if (toolStems.contains(w.length() > 5 ? w.substring(0, 5) : w) && out.size() < 3) {
                out.add(w);
            }
        }
        return out;
    }

    private static List<String> lowerWords(String text) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            while (i < text.length() && !Character.isLetterOrDigit(text.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < text.length() && Character.isLetterOrDigit(text.charAt(i))) {
                i++;
            }
            if (i > start) {
                out.add(text.substring(start, i).toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }
}
