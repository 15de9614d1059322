/**
 * Celer's native transport: Linux system calls through the Foreign Function and Memory API (epoll, and io_uring's rings), no JNI
 * library to build or ship. Needs {@code --enable-native-access=io.celer.linux} on the module path, or
 * {@code --enable-native-access=ALL-UNNAMED} on the class path. Its accepted channels are the core's
 * {@code ReusableChannel}s.
 */
module io.celer.linux
{
    requires io.celer.core;

    exports io.celer.linux;
    exports io.celer.linux.epoll;
    exports io.celer.linux.nio;
    exports io.celer.linux.uring;
}
