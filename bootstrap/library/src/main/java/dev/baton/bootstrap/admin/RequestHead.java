package dev.baton.bootstrap.admin;

import com.sun.net.httpserver.Headers;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A request's line and headers, as {@link HttpFront} read them: {@code METHOD /path?query HTTP/1.1}, then one
 * {@code Name: value} a line up to an empty line. Anything else is refused with the status of
 * {@link AdminHttpException}: a request line or header that is not HTTP, a target that is not a path, a version other
 * than 1.0 and 1.1, folded header lines, more than {@link #MAX_HEADERS} headers.
 */
record RequestHead(String method, URI target, String protocol, Headers headers) {
    static final int MAX_HEADERS = 100;
    private static final String TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
    private static final Pattern REQUEST_LINE = Pattern.compile("(" + TOKEN + ") (/\\S*) (HTTP/1\\.[01])");
    /** A name, and a value of visible characters, spaces and tabs (no control character). */
    private static final String VALUE = "[\\t\\x20-\\x7e\\x80-\\xff]*?";
    private static final Pattern HEADER = Pattern.compile("(" + TOKEN + "):[ \t]*(" + VALUE + ")[ \t]*");

    /**
     * Where the head in {@code buffer} (from 0 to its position) ends: the index after its empty line, or -1 while it
     * has not come yet. A bare LF ends a line as CRLF does. Bytes before {@code from} were looked at already.
     */
    static int end(ByteBuffer buffer, int from) {
        for (int i = Math.max(1, from - 2); i < buffer.position(); i++) {
            if (buffer.get(i) == '\n' && (buffer.get(i - 1) == '\n'
                    || buffer.get(i - 1) == '\r' && i >= 2 && buffer.get(i - 2) == '\n')) {
                return i + 1;
            }
        }
        return -1;
    }

    /** The head of {@code length} bytes at the start of {@code buffer}. */
    static RequestHead parse(ByteBuffer buffer, int length) {
        byte[] bytes = new byte[length];
        buffer.get(0, bytes);
        String[] lines = new String(bytes, StandardCharsets.ISO_8859_1).split("\r?\n");
        Matcher request = REQUEST_LINE.matcher(lines[0]);
        if (!request.matches()) {
            throw AdminHttpException.badRequest("malformed request line: expected 'METHOD /path HTTP/1.1'");
        }
        if (lines.length - 1 > MAX_HEADERS) {
            throw new AdminHttpException(431, "more than " + MAX_HEADERS + " headers");
        }
        Headers headers = new Headers();
        for (int i = 1; i < lines.length; i++) {
            Matcher header = HEADER.matcher(lines[i]);
            if (!header.matches()) {
                throw AdminHttpException.badRequest("malformed header line " + i + ": expected 'Name: value'");
            }
            headers.add(header.group(1), header.group(2));
        }
        try {
            return new RequestHead(request.group(1), new URI(request.group(2)), request.group(3), headers);
        } catch (URISyntaxException e) {
            throw AdminHttpException.badRequest("malformed request target: " + e.getMessage());
        }
    }

    /**
     * The length of the body that follows, from {@code Content-Length}.
     *
     * @throws AdminHttpException 411 for a body sent in chunks, 400 for a malformed length, 413 past {@code max}
     */
    long bodyLength(int max) {
        if (headers.containsKey("Transfer-Encoding")) {
            throw new AdminHttpException(411, "send the body with a Content-Length, not in chunks");
        }
        if (!headers.containsKey("Content-Length")) {
            return 0;
        }
        String text = String.join(",", headers.get("Content-Length"));
        if (!text.matches("[0-9]{1,18}")) {
            throw AdminHttpException.badRequest("malformed Content-Length: " + text);
        }
        long length = Long.parseLong(text);
        if (length > max) {
            throw new AdminHttpException(413, "the body is larger than " + max + " bytes");
        }
        return length;
    }
}
