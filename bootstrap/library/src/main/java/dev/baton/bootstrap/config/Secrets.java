package dev.baton.bootstrap.config;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Hides passwords in connection strings before they reach a log, a terminal or the admin API. */
public final class Secrets {
    public static final String MASK = "****";
    // user:password@ in any URI (redis://, rediss://, jdbc:postgresql://user:pw@...)
    private static final Pattern USER_INFO = Pattern.compile("(//[^/@:?#\\s]*:)[^/@\\s]*@");
    // password=... in a query string or JDBC properties (password, sslpassword, ...)
    private static final Pattern PASSWORD_PARAM =
            Pattern.compile("((?i)[?&;][a-z]*password=)[^&;\\s]*");

    private Secrets() {
    }

    /** The raw secrets inside {@code text} (passwords of URIs and password parameters), for redaction elsewhere. */
    public static List<String> find(String text) {
        List<String> found = new ArrayList<>();
        for (Pattern pattern : new Pattern[] {USER_INFO, PASSWORD_PARAM}) {
            Matcher matcher = pattern.matcher(text);
            while (matcher.find()) {
                String secret = matcher.group().substring(matcher.group(1).length());
                secret = secret.endsWith("@") ? secret.substring(0, secret.length() - 1) : secret;
                if (!secret.isEmpty()) {
                    found.add(secret);
                }
            }
        }
        return found;
    }

    /** {@code redis://:s3cret@host:6379} becomes {@code redis://:****@host:6379}; text without secrets is unchanged. */
    public static String mask(String text) {
        if (text == null) {
            return null;
        }
        String masked = USER_INFO.matcher(text).replaceAll("$1" + MASK + "@");
        return PASSWORD_PARAM.matcher(masked).replaceAll("$1" + MASK);
    }
}
