package dev.baton.adapters.postgres;

import java.util.regex.Pattern;

/** Keeps passwords in JDBC URLs out of messages and logs. */
final class JdbcUrls {
    private static final Pattern PASSWORD_PARAMETER = Pattern.compile("(?i)([?&;]password=)[^&;#]*");
    // greedy up to the last '@' before the path, so that a password containing '@' is masked whole
    private static final Pattern USER_INFO = Pattern.compile("(//[^/:@?#]*):[^/?#]*@");

    private JdbcUrls() {
    }

    static String masked(String url) {
        if (url == null) {
            return null;
        }
        String withoutParameter = PASSWORD_PARAMETER.matcher(url).replaceAll("$1***");
        return USER_INFO.matcher(withoutParameter).replaceAll("$1:***@");
    }

    static boolean hasUserInfo(String url) {
        return USER_INFO.matcher(url).find();
    }
}
