package dev.toolscout.engine.files;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import org.yaml.snakeyaml.LoaderOptions;

/** The two text forms of a catalog file, chosen by the file's extension. */
enum CatalogFormat {
    JSON("JSON", jsonMapper()),
    YAML("YAML", yamlMapper());

    /** The extensions {@link #of} accepts, for error messages. */
    static final String EXTENSIONS = ".json, .yaml or .yml";

    final String label;
    final ObjectMapper mapper;

    CatalogFormat(String label, ObjectMapper mapper) {
        this.label = label;
        this.mapper = mapper;
    }

    /**
     * Parses one document into a tree.
     *
     * @throws JsonProcessingException for malformed text, with its location
     */
    JsonNode read(byte[] content) throws IOException {
        if (this == JSON) {
            return mapper.readTree(content);
        }
        try (JsonParser p = new NoAliases(mapper.createParser(content))) {
            return mapper.readTree(p);
        }
    }

    /**
     * Jackson's tree reader turns a YAML alias ({@code *name}) into the text {@code "name"} instead
     * of the anchored value, which would load a wrong description or schema without a word. Refusing
     * aliases is the honest option until they are resolved.
     */
    private static final class NoAliases extends JsonParserDelegate {
        NoAliases(JsonParser yaml) {
            super(yaml);
        }

        @Override
        public JsonToken nextToken() throws IOException {
            return check(super.nextToken());
        }

        @Override
        public JsonToken nextValue() throws IOException {
            return check(super.nextValue());
        }

        private JsonToken check(JsonToken t) throws IOException {
            if (delegate instanceof YAMLParser y && y.isCurrentAlias()) {
                throw new JsonParseException(
                        this,
                        "YAML aliases are not supported, got: *" + y.getText() + " (repeat the anchored value instead)",
                        y.currentTokenLocation());
            }
            return t;
        }
    }

    /**
     * The format for a file name, or {@code null} when its extension is none of {@link #EXTENSIONS}.
     */
    static CatalogFormat of(Path file) {
        Path name = file.getFileName();
        if (name == null) {
            return null;
        }
        String n = name.toString().toLowerCase(Locale.ROOT);
        if (n.endsWith(".json")) {
            return JSON;
        }
        if (n.endsWith(".yaml") || n.endsWith(".yml")) {
            return YAML;
        }
        return null;
    }

    // A repeated key would otherwise silently keep the last value; trailing text after the document
    // would
    // otherwise be ignored. Both are mistakes worth a line number.
    private static ObjectMapper jsonMapper() {
        return JsonMapper.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .build();
    }

    private static ObjectMapper yamlMapper() {
        LoaderOptions options = new LoaderOptions();
        // SnakeYAML's own default (3 MB) is below our file limit; the file size is checked before
        // parsing.
        options.setCodePointLimit((int) CatalogFiles.MAX_FILE_BYTES);
        return YAMLMapper.builder(YAMLFactory.builder().loaderOptions(options).build())
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .build();
    }
}
