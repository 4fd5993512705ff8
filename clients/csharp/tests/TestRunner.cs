// A small test runner (NUnit's console runner is not in Debian): every public method marked [Test]
// of a public class in this assembly runs, async ones awaited; one line per test, exit 1 on a failure.
using System;
using System.Linq;
using System.Reflection;
using System.Threading.Tasks;

[AttributeUsage(AttributeTargets.Method)]
public sealed class TestAttribute : Attribute { }

public sealed class AssertionException : Exception
{
    public AssertionException(string message) : base(message) { }
}

public static class Assert
{
    public static void Equal<T>(T expected, T actual, string what = null)
    {
        if (!Equals(expected, actual)) throw new AssertionException((what ?? "value") + ": expected <" + expected + ">, got <" + actual + ">");
    }

    public static void True(bool condition, string what) { if (!condition) throw new AssertionException(what); }

    public static T Throws<T>(Func<Task> call) where T : Exception
    {
        try { call().GetAwaiter().GetResult(); }
        catch (T e) { return e; }
        catch (Exception e) { throw new AssertionException("expected " + typeof(T).Name + ", got " + e); }
        throw new AssertionException("expected " + typeof(T).Name + ", nothing was thrown");
    }
}

public static class TestRunner
{
    public static int Main(string[] args)
    {
        var tests = Assembly.GetExecutingAssembly().GetTypes()
            .Where(t => t.IsPublic && !t.IsAbstract)
            .SelectMany(t => t.GetMethods().Where(m => m.GetCustomAttribute<TestAttribute>() != null))
            .OrderBy(m => m.DeclaringType.Name).ThenBy(m => m.MetadataToken).ToList();
        var failed = 0;
        foreach (var test in tests)
        {
            var name = test.DeclaringType.Name + "." + test.Name;
            var instance = Activator.CreateInstance(test.DeclaringType);
            try
            {
                var result = test.Invoke(instance, null);
                if (result is Task task) task.GetAwaiter().GetResult();
                Console.WriteLine("ok   " + name);
            }
            catch (Exception e)
            {
                failed++;
                var cause = e is TargetInvocationException && e.InnerException != null ? e.InnerException : e;
                Console.WriteLine("FAIL " + name + ": " + cause.Message);
                if (!(cause is AssertionException)) Console.WriteLine(cause);
            }
            finally
            {
                (instance as IDisposable)?.Dispose();
            }
        }
        Console.WriteLine((tests.Count - failed) + " passed, " + failed + " failed");
        return tests.Count > 0 && failed == 0 ? 0 : 1;
    }
}
