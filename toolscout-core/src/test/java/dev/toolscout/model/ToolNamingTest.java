package dev.toolscout.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Wire names for upstream tools: sanitized, at most 64 characters, distinct, and independent of order. */
class ToolNamingTest {
    static String hash6(String s) {
        return Hashing.sha256Hex(s).substring(0, 6);
    }

    static String wire(String prefix, String original) {
        return ToolNaming.wireNames(prefix, List.of(original)).get(original);
    }

    @Test
    void characters_outside_the_wire_alphabet_become_underscores() {
        assertThat(wire("srv", "weird name/with:chars")).isEqualTo("srv__weird_name_with_chars");
        assertThat(wire("srv", "get.user")).isEqualTo("srv__get_user");
        assertThat(wire("srv", "Already_Fine-1")).isEqualTo("srv__Already_Fine-1");
        assertThat(wire("srv", "日本語")).isEqualTo("srv_____");
        assertThat(wire("srv", "")).isEqualTo("srv__tool");
    }

    @Test
    void accents_are_dropped_rather_than_replaced() {
        assertThat(wire("srv", "café")).isEqualTo("srv__cafe");
        assertThat(wire("srv", "Ünïcödé-Tööl")).isEqualTo("srv__Unicode-Tool");
        // compatibility forms are folded too: the ligature is two letters
        assertThat(wire("srv", "ﬁle_list")).isEqualTo("srv__file_list");
    }

    @Test
    void name_too_long_is_cut_to_64_characters_ending_in_a_hash_of_the_original() {
        String original = "list_" + "very_".repeat(30) + "long";

        String name = wire("github", original);

        assertThat(name)
                .hasSize(64)
                .startsWith("github__list_very_very_")
                .endsWith("_" + hash6(original))
                .matches(ToolName.WIRE.pattern());
        // a different tail gives a different name, though the kept head is the same
        assertThat(wire("github", original + "er")).hasSize(64).isNotEqualTo(name);
    }

    @Test
    void colliding_names_resolve_the_same_way_whatever_the_listing_order() {
        List<String> originals = List.of("a b", "a_b", "a:b", "a/b");
        Map<String, String> expected = Map.of(
                "a_b", "srv__a_b", // needed no change: keeps the name
                "a b", "srv__a_b_" + hash6("a b"),
                "a:b", "srv__a_b_" + hash6("a:b"),
                "a/b", "srv__a_b_" + hash6("a/b"));

        for (List<String> order : permutations(originals)) {
            assertThat(ToolNaming.wireNames("srv", order))
                    .as("order %s", order)
                    .containsExactlyInAnyOrderEntriesOf(expected);
        }
    }

    @Test
    void result_follows_the_order_given() {
        assertThat(ToolNaming.wireNames("srv", List.of("b", "a", "c")).keySet()).containsExactly("b", "a", "c");
    }

    @Test
    void when_every_colliding_name_needed_a_change_the_first_in_code_point_order_keeps_it() {
        assertThat(ToolNaming.wireNames("srv", List.of("a:b", "a b")))
                .containsEntry("a b", "srv__a_b") // ' ' (U+0020) comes before ':' (U+003A)
                .containsEntry("a:b", "srv__a_b_" + hash6("a:b"));
        // by code point, not by UTF-16 unit: U+FF01 comes before U+1F600, whose first unit (0xD83D) is smaller
        String fullwidth = "x\uFF01";
        String emoji = "x\uD83D\uDE00";
        assertThat(ToolNaming.wireNames("srv", List.of(emoji, fullwidth)))
                .containsEntry(fullwidth, "srv__x_")
                .containsEntry(emoji, "srv__x__" + hash6(emoji));
    }

    @Test
    void listed_name_equal_to_another_tools_suffixed_name_still_gets_a_distinct_wire_name() {
        String suffixed = "clash_name_" + hash6("clash name");
        List<String> originals = List.of("clash name", "clash_name", suffixed);

        Map<String, String> first = ToolNaming.wireNames("srv", originals);

        assertThat(first).containsEntry("clash_name", "srv__clash_name").containsEntry(suffixed, "srv__" + suffixed);
        assertThat(first.get("clash name")).startsWith("srv__clash_name_").matches(ToolName.WIRE.pattern());
        assertThat(new HashSet<>(first.values())).hasSize(3);
        for (List<String> order : permutations(originals)) {
            assertThat(ToolNaming.wireNames("srv", order))
                    .as("order %s", order)
                    .containsExactlyInAnyOrderEntriesOf(first);
        }
    }

    @Test
    void random_unicode_names_always_get_valid_distinct_wire_names_independent_of_order() {
        long seed = Long.getLong("tests.seed", System.nanoTime());
        System.out.println(
                "ToolNamingTest.random_unicode_names_always_get_valid_distinct_wire_names_independent_of_order"
                        + " seed: " + seed + " (rerun with -Dtests.seed=" + seed + ")");
        Random random = new Random(seed);
        for (int round = 0; round < 300; round++) {
            String prefix = ToolNaming.serverPrefix(randomName(random, 1 + random.nextInt(48)) + "s");
            List<String> originals = new ArrayList<>(new java.util.LinkedHashSet<>(randomNames(random)));
            // a server may list, literally, the names other tools were given: take some of them as originals too
            Map<String, String> firstPass = ToolNaming.wireNames(prefix, originals);
            for (String w : firstPass.values()) {
                String action = w.substring(prefix.length() + 2);
                if (random.nextInt(3) == 0 && !originals.contains(action)) {
                    originals.add(action);
                }
            }

            Map<String, String> names = ToolNaming.wireNames(prefix, originals);

            String context = "seed " + seed + ", round " + round + ", prefix '" + prefix + "', originals "
                    + originals.stream().map(ToolNamingTest::escaped).toList();
            assertThat(names.keySet()).as(context).containsExactlyElementsOf(originals);
            for (Map.Entry<String, String> e : names.entrySet()) {
                String w = e.getValue();
                assertThat(w)
                        .as("%s: wire name of '%s'", context, escaped(e.getKey()))
                        .matches(ToolName.WIRE.pattern());
                ToolName parsed = ToolName.parse(w);
                assertThat(parsed.source()).as(context).isEqualTo(prefix);
                if (e.getKey().matches("[a-zA-Z0-9_-]+")
                        && prefix.length() + 2 + e.getKey().length() <= 64) {
                    // a name that needs no change keeps it, whatever else the server lists
                    assertThat(parsed.action()).as(context).isEqualTo(e.getKey());
                }
            }
            assertThat(new HashSet<>(names.values())).as(context + ": distinct").hasSize(originals.size());
            List<String> shuffled = new ArrayList<>(originals);
            Collections.shuffle(shuffled, random);
            assertThat(ToolNaming.wireNames(prefix, shuffled))
                    .as(context + ", shuffled")
                    .isEqualTo(names);
        }
    }

    /** The name with everything outside printable ASCII as a Java escape (a lone surrogate breaks reports). */
    static String escaped(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            sb.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04X", (int) c));
        }
        return sb.toString();
    }

    static List<String> randomNames(Random random) {
        List<String> out = new ArrayList<>();
        int n = 1 + random.nextInt(12);
        for (int i = 0; i < n; i++) {
            // short names from a tiny alphabet collide often; long ones test the cut
            out.add(
                    random.nextInt(3) == 0
                            ? randomName(random, 1 + random.nextInt(3))
                            : randomName(
                                    random, random.nextInt(4) == 0 ? 40 + random.nextInt(100) : random.nextInt(20)));
        }
        return out;
    }

    static final String[] POOLS = {
        "abcxyzABCXYZ0189",
        "_-",
        " :/.@!",
        "éÜçñØß",
        "\u0301\u0308",
        "日本語",
        "ﬁ\uFF01",
        "\uD83D\uDE00\uD83D\uDC4D",
        "\uD800",
        "\u00A0\u200B",
        "ab :"
    };

    static String randomName(Random random, int length) {
        StringBuilder sb = new StringBuilder();
        while (sb.length() < length) {
            String pool = POOLS[random.nextInt(POOLS.length)];
            int at = random.nextInt(pool.length());
            if (Character.isHighSurrogate(pool.charAt(at))
                    && at + 1 < pool.length()
                    && Character.isLowSurrogate(pool.charAt(at + 1))) {
                sb.append(pool, at, at + 2);
            } else if (Character.isLowSurrogate(pool.charAt(at))) {
                sb.append(pool.charAt(at - 1)).append(pool.charAt(at));
            } else {
                sb.append(pool.charAt(at));
            }
        }
        return sb.toString();
    }

    static <T> List<List<T>> permutations(List<T> items) {
        if (items.size() <= 1) {
            return List.of(items);
        }
        List<List<T>> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            List<T> rest = new ArrayList<>(items);
            T first = rest.remove(i);
            for (List<T> p : permutations(rest)) {
                List<T> one = new ArrayList<>();
                one.add(first);
                one.addAll(p);
                out.add(one);
            }
        }
        return out;
    }
}
