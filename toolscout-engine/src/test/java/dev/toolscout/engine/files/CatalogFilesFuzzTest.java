package dev.toolscout.engine.files;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.model.ToolSpecJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Mutates the demo catalog at random and checks the loader's contract: it returns specs or throws a
 * {@link CatalogFileException} naming the file, never anything else (no NullPointerException,
 * ClassCastException, parser-internal exception). Set {@code -Dtests.seed=N} to replay a run.
 */
class CatalogFilesFuzzTest {
    private static final int ITERATIONS = 2_000;
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String LABEL = "fuzz.json";
    private static final YAMLMapper YAML_WRITER = new YAMLMapper();

    private enum Mutation {
        TRUNCATE,
        FLIP_BYTES,
        INSERT_BYTES,
        SWAP_TYPE,
        REMOVE_KEY,
        RENAME_KEY,
        DUPLICATE_ELEMENT,
        AS_YAML
    }

    @Test
    void mutated_catalogs_load_or_fail_with_a_catalog_file_exception() throws IOException {
        long seed = Long.getLong("tests.seed", System.nanoTime());
        System.out.println("CatalogFilesFuzzTest seed: " + seed + " (replay with -Dtests.seed=" + seed + ")");
        Random random = new Random(seed);
        // Renamed keys make the loader warn often; the warnings are tested in CatalogFilesTest.
        Logger log = (Logger) LoggerFactory.getLogger("dev.toolscout.engine.files");
        Level level = log.getLevel();
        log.setLevel(Level.ERROR);
        try {
            run(seed, random);
        } finally {
            log.setLevel(level);
        }
    }

    private void run(long seed, Random random) throws IOException {
        JsonNode demo = CatalogFormat.JSON.mapper.readTree(demoBytes());
        List<JsonNode> tools = new ArrayList<>();
        CatalogFiles.demo().forEach(t -> tools.add(ToolSpecJson.toJson(t)));
        // tools as public catalogs write them (Python-style types, a schema without type, an unreadable one), so
        // the schema reader is fuzzed too
        try (InputStream in = CatalogFilesFuzzTest.class.getResourceAsStream("/catalogs/python-types.json")) {
            CatalogFormat.JSON.mapper.readTree(in).get("tools").forEach(tools::add);
        }
        int loaded = 0;
        int rejected = 0;

        for (int i = 0; i < ITERATIONS; i++) {
            Mutation mutation = Mutation.values()[random.nextInt(Mutation.values().length)];
            // The YAML round trip is the slowest step; it gets the smaller documents only.
            JsonNode base = base(demo, tools, random, mutation != Mutation.AS_YAML);
            byte[] bytes = CatalogFormat.JSON.mapper.writeValueAsBytes(base);
            CatalogFormat format = CatalogFormat.JSON;
            byte[] input;
            switch (mutation) {
                case TRUNCATE -> input = Arrays.copyOf(bytes, random.nextInt(bytes.length));
                case FLIP_BYTES -> input = flipBytes(bytes, random);
                case INSERT_BYTES -> input = insertBytes(bytes, random);
                case AS_YAML -> {
                    format = CatalogFormat.YAML;
                    byte[] yaml = YAML_WRITER.writeValueAsBytes(mutateTree(base, random));
                    input = switch (random.nextInt(3)) {
                        case 0 -> yaml;
                        case 1 -> flipBytes(yaml, random);
                        default -> insertBytes(yaml, random);
                    };
                }
                default -> input = CatalogFormat.JSON.mapper.writeValueAsBytes(mutateTree(base, mutation, random));
            }
            try {
                List<CatalogFiles.Entry> entries = CatalogFiles.parse(LABEL, input, format);
                HashSet<String> names = new HashSet<>();
                for (CatalogFiles.Entry e : entries) {
                    ToolSpec spec = e.spec();
                    assertThat(spec).isNotNull();
                    assertThat(names.add(spec.fullName()))
                            .as("unique %s", spec.fullName())
                            .isTrue();
                }
                loaded++;
            } catch (CatalogFileException e) {
                assertThat(e.getMessage()).startsWith(LABEL + ": ");
                assertThat(e.file()).isEqualTo(LABEL);
                rejected++;
            } catch (RuntimeException | StackOverflowError e) {
                throw new AssertionError(
                        "seed "
                                + seed
                                + ", iteration "
                                + i
                                + ", mutation "
                                + mutation
                                + " ("
                                + format
                                + "): expected specs or CatalogFileException, got "
                                + e
                                + "\ninput (first 2000 chars):\n"
                                + new String(input, 0, Math.min(input.length, 2000), StandardCharsets.UTF_8),
                        e);
            }
        }
        System.out.println("CatalogFilesFuzzTest: " + loaded + " loaded, " + rejected + " rejected");
        // Both outcomes must occur, or the mutations are too weak (all rejected) or not applied (all
        // loaded).
        assertThat(loaded).isPositive();
        assertThat(rejected).isPositive();
    }

    /**
     * The document to mutate: the whole demo catalog a quarter of the time, otherwise a few of its
     * sources, or a few of its tools as a {@code tools} list or a bare array, so that every shape of
     * the format is fuzzed and an iteration stays cheap.
     */
    private static JsonNode base(JsonNode demo, List<JsonNode> tools, Random random, boolean whole) {
        int shape = whole ? random.nextInt(4) : 1 + random.nextInt(3);
        if (shape == 0) {
            return demo;
        }
        ArrayNode picked = F.arrayNode();
        JsonNode from = shape == 1 ? demo.get("sources") : F.arrayNode().addAll(tools);
        int n = 1 + random.nextInt(shape == 1 ? 3 : 12);
        for (int k = 0; k < n; k++) {
            picked.add(from.get(random.nextInt(from.size())));
        }
        return switch (shape) {
            case 1 -> F.objectNode().set("sources", picked);
            case 2 -> F.objectNode().set("tools", picked);
            default -> picked;
        };
    }

    private static byte[] demoBytes() throws IOException {
        try (InputStream in = CatalogFiles.class.getResourceAsStream(CatalogFiles.DEMO_RESOURCE)) {
            assertThat(in).as(CatalogFiles.DEMO_RESOURCE).isNotNull();
            return in.readAllBytes();
        }
    }

    private static byte[] flipBytes(byte[] in, Random random) {
        byte[] out = in.clone();
        int flips = 1 + random.nextInt(8);
        for (int k = 0; k < flips && out.length > 0; k++) {
            int at = random.nextInt(out.length);
            out[at] = random.nextBoolean() ? (byte) random.nextInt(256) : (byte) (out[at] ^ (1 << random.nextInt(8)));
        }
        return out;
    }

    private static final String[] SNIPPETS = {
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"",
        "null",
        "-1",
        "1e999",
        "\\u0000",
        "\uFFFF",
        "&a",
        "*a",
        "!!binary",
        "\n- ",
        "\t",
        "---\n",
        "__",
        "\"name\": \"x\"",
        "\u00e9",
        "\ud83d\ude00"
    };

    private static byte[] insertBytes(byte[] in, Random random) {
        String s = new String(in, StandardCharsets.UTF_8);
        int at = random.nextInt(s.length() + 1);
        String snippet = SNIPPETS[random.nextInt(SNIPPETS.length)];
        return (s.substring(0, at) + snippet + s.substring(at)).getBytes(StandardCharsets.UTF_8);
    }

    private static JsonNode mutateTree(JsonNode tree, Random random) {
        Mutation[] treeMutations = {
            Mutation.SWAP_TYPE, Mutation.REMOVE_KEY, Mutation.RENAME_KEY, Mutation.DUPLICATE_ELEMENT
        };
        return mutateTree(tree, treeMutations[random.nextInt(treeMutations.length)], random);
    }

    /** Applies one to three structural changes at random places of a copy of {@code tree}. */
    private static JsonNode mutateTree(JsonNode tree, Mutation mutation, Random random) {
        JsonNode root = tree.deepCopy();
        int changes = 1 + random.nextInt(3);
        for (int c = 0; c < changes; c++) {
            List<JsonNode> containers = new ArrayList<>();
            collectContainers(root, containers);
            JsonNode target = containers.get(random.nextInt(containers.size()));
            if (target.isEmpty()) {
                continue;
            }
            if (target instanceof ObjectNode obj) {
                List<String> keys = new ArrayList<>();
                obj.fieldNames().forEachRemaining(keys::add);
                String key = keys.get(random.nextInt(keys.size()));
                switch (mutation) {
                    case REMOVE_KEY -> obj.remove(key);
                    case RENAME_KEY -> obj.set(key + (random.nextBoolean() ? "_x" : "s"), obj.remove(key));
                    case DUPLICATE_ELEMENT ->
                        obj.set("copy_of_" + key, obj.get(key).deepCopy());
                    default -> obj.set(key, randomValue(random));
                }
            } else if (target instanceof ArrayNode arr) {
                int index = random.nextInt(arr.size());
                switch (mutation) {
                    case REMOVE_KEY -> arr.remove(index);
                    case DUPLICATE_ELEMENT -> arr.add(arr.get(index).deepCopy());
                    default -> arr.set(index, randomValue(random));
                }
            }
        }
        return root;
    }

    private static void collectContainers(JsonNode node, List<JsonNode> out) {
        if (node.isContainerNode()) {
            out.add(node);
            node.forEach(child -> collectContainers(child, out));
        }
    }

    private static JsonNode randomValue(Random random) {
        return switch (random.nextInt(12)) {
            case 0 -> F.nullNode();
            case 1 -> F.booleanNode(random.nextBoolean());
            case 2 -> F.numberNode(random.nextInt());
            case 3 -> F.numberNode(random.nextDouble() * 1e6);
            case 4 -> F.textNode("");
            case 5 -> F.textNode("   ");
            case 6 -> F.textNode("x".repeat(random.nextBoolean() ? 65 : ToolSpec.MAX_DESCRIPTION + 1));
            case 7 -> F.textNode("a__b");
            case 8 -> F.textNode("propose");
            case 9 -> F.arrayNode().add(F.numberNode(1)).add(F.nullNode());
            case 10 -> F.objectNode().put("type", "string");
            default -> F.objectNode();
        };
    }
}
