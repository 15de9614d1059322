package io.celer.linux;

/**
 * Checks once that this module may call native code, so that a missing flag fails at start with the flag to add
 * rather than with the JVM's warning, or its refusal once the JDK enforces it.
 */
final class NativeAccess
{
    private static volatile boolean checked;

    private NativeAccess()
    {
    }

    static void check()
    {
        if (checked)
        {
            return;
        }
        final Module module = NativeAccess.class.getModule();
        if (!module.isNativeAccessEnabled())
        {
            throw new IllegalStateException("Celer's native transport calls the kernel through the FFM API: run " +
                "java with " + (module.isNamed()
                    ? "--enable-native-access=" + module.getName()
                    : "--enable-native-access=ALL-UNNAMED") + ", or use the NIO transport");
        }
        checked = true;
    }
}
