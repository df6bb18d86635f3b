/**
 * JSON on whichever Jackson the application has: Jackson 3 when it is on the classpath, else Jackson 2. Of Baton's own
 * code, only this package names Jackson; the rest reads and writes JSON through {@code JsonCodec}.
 */
package dev.baton.bootstrap.json;
