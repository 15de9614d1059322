package io.celer.examples.cli;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IFactory;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Parses a command line for a picocli command and its subcommands and runs it: hands each command or mixin
 * whose constructor takes a {@link DemoContext} that context, and turns bad arguments into one clear line and
 * exit code 2.
 *
 * <p>A subcommand is a class annotated {@code @Command}, for a demo with options of its own as fields, or a
 * class with a static {@code @Command} method, for a demo that takes only shared options, as mixin parameters.
 */
public final class Launcher
{
    private Launcher()
    {
    }

    /**
     * Runs a command line with the process's streams and exits with its exit code; Ctrl-C stops a running
     * demo cleanly.
     *
     * @param command     the top-level command.
     * @param subcommands its subcommands' classes.
     * @param args        the command line.
     */
    public static void main(final Object command, final List<Class<?>> subcommands, final String[] args)
    {
        System.exit(execute(command, subcommands, DemoContext.system(), args));
    }

    /**
     * Parses the arguments and runs the command they name until it finishes or is stopped.
     *
     * @param command     the top-level command.
     * @param subcommands its subcommands' classes.
     * @param context     where the demos print and whom they tell once they run.
     * @param args        the command line.
     * @return 0 on success, 1 if the demo failed, 2 for bad arguments.
     */
    public static int execute(
        final Object command, final List<Class<?>> subcommands, final DemoContext context, final String... args)
    {
        final IFactory factory = new ContextFactory(context);
        final CommandLine commandLine = new CommandLine(command, factory);
        for (final Class<?> subcommand : subcommands)
        {
            if (subcommand.isAnnotationPresent(Command.class))
            {
                commandLine.addSubcommand(new CommandLine(subcommand, factory));
            }
            for (final Method method : CommandLine.getCommandMethods(subcommand, null))
            {
                commandLine.addSubcommand(new CommandLine(method, factory));
            }
        }
        commandLine.setOut(new PrintWriter(context.out(), true));
        commandLine.setErr(new PrintWriter(context.err(), true));
        commandLine.setUsageHelpAutoWidth(true);
        commandLine.getCommandSpec().usageMessage().sortOptions(false);
        for (final CommandLine subcommand : commandLine.getSubcommands().values())
        {
            subcommand.getCommandSpec().usageMessage().sortOptions(false);
        }
        commandLine.setParameterExceptionHandler((ex, badArgs) -> usageError(ex.getCommandLine(), message(ex)));
        commandLine.setExecutionExceptionHandler((ex, failed, parseResult) ->
        {
            if (ex instanceof UsageException)
            {
                return usageError(failed, ex.getMessage());
            }
            throw ex;
        });
        return commandLine.execute(args);
    }

    private static String message(final ParameterException ex)
    {
        final CommandLine commandLine = ex.getCommandLine();
        if (ex instanceof UnmatchedArgumentException && !commandLine.getSubcommands().isEmpty())
        {
            final List<String> unmatched = ((UnmatchedArgumentException)ex).getUnmatched();
            if (!unmatched.isEmpty() && !unmatched.get(0).startsWith("-"))
            {
                return "unknown demo '" + unmatched.get(0) + "', expected one of " +
                    String.join(", ", commandLine.getSubcommands().keySet());
            }
        }
        return ex.getMessage();
    }

    private static int usageError(final CommandLine commandLine, final String message)
    {
        // One clear line beats the whole usage text scrolling the mistake away.
        commandLine.getErr().println(message);
        commandLine.getErr().println("Try '" + commandLine.getCommandSpec().qualifiedName() + " --help' for " +
            (commandLine.getSubcommands().isEmpty() ? "its options." : "the names and options."));
        return CommandLine.ExitCode.USAGE;
    }

    static String describe(final Throwable failure)
    {
        return failure == null ? "" : ": " + message(failure);
    }

    static String message(final Throwable failure)
    {
        // Some exceptions (UnresolvedAddressException) carry no message: their name says it all.
        return failure.getMessage() != null ? failure.getMessage() : failure.getClass().getSimpleName();
    }

    /**
     * Builds commands with the context when they take it, and everything else (mixins, converters) as
     * picocli does.
     */
    private static final class ContextFactory implements IFactory
    {
        private final DemoContext context;

        ContextFactory(final DemoContext context)
        {
            this.context = context;
        }

        @Override
        public <K> K create(final Class<K> type) throws Exception
        {
            try
            {
                return type.getDeclaredConstructor(DemoContext.class).newInstance(context);
            }
            catch (final NoSuchMethodException ex)
            {
                return CommandLine.defaultFactory().create(type);
            }
            catch (final InvocationTargetException ex)
            {
                throw ex.getCause() instanceof Exception ? (Exception)ex.getCause() : ex;
            }
        }
    }
}
