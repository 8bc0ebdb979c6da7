package dev.toolscout.lucene;

import java.io.Reader;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.core.FlattenGraphFilter;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.KStemFilter;
import org.apache.lucene.analysis.miscellaneous.WordDelimiterGraphFilter;
import org.apache.lucene.analysis.pattern.PatternReplaceCharFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;

/**
 * The analysis chain of every text field and of lexical queries: identifier separators ({@code _}, {@code .}
 * between letters) become spaces, then the standard tokenizer, camelCase words split (the whole kept too),
 * English possessive removal, lower case, English stop words, and KStem. Thread-safe (Lucene reuses the components per thread).
 */
final class ToolAnalyzer extends Analyzer {
    // UAX#29 keeps "send_email" and "user.id" as one token, so a query for "send email" would miss them;
    // identifiers are common in tool descriptions and in queries that name a tool.
    private static final Pattern IDENTIFIER_SEPARATORS = Pattern.compile("_|(?<=\\p{L})\\.(?=\\p{L})");

    @Override
    protected Reader initReader(String fieldName, Reader reader) {
        return new PatternReplaceCharFilter(IDENTIFIER_SEPARATORS, " ", reader);
    }

    /**
     * camelCase names split into their words, the whole kept too: "use the FinanceTool" finds the tool whose
     * name words are "finance tool", and "iphone" still finds "iPhone".
     */
    private static final int CAMEL_CASE = WordDelimiterGraphFilter.GENERATE_WORD_PARTS
            | WordDelimiterGraphFilter.SPLIT_ON_CASE_CHANGE
            | WordDelimiterGraphFilter.PRESERVE_ORIGINAL;

    @Override
    protected TokenStreamComponents createComponents(String fieldName) {
        StandardTokenizer source = new StandardTokenizer();
        TokenStream result = new WordDelimiterGraphFilter(source, CAMEL_CASE, null);
        result = new FlattenGraphFilter(result); // the index takes a flat token stream
        result = new EnglishPossessiveFilter(result);
        result = new LowerCaseFilter(result);
        result = new StopFilter(result, EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
        result = new KStemFilter(result); // chosen by measurement, see LuceneToolIndex
        return new TokenStreamComponents(source, result);
    }

    @Override
    protected TokenStream normalize(String fieldName, TokenStream in) {
        return new LowerCaseFilter(in);
    }
}
