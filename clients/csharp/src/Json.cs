using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace ContactVerify
{
    /// <summary>
    /// A small JSON reader and writer, so the library needs nothing beyond netstandard2.0 and runs the
    /// same on .NET and Mono: objects read as Dictionary&lt;string, object&gt;, arrays as
    /// List&lt;object&gt;, numbers as double, and the models are built from those.
    /// </summary>
    internal static class Json
    {
        public static object Parse(string text)
        {
            var i = 0;
            var value = Value(text, ref i);
            Space(text, ref i);
            if (i != text.Length) throw new FormatException("JSON: unexpected text at " + i);
            return value;
        }

        private static void Space(string s, ref int i)
        {
            while (i < s.Length && char.IsWhiteSpace(s[i])) i++;
        }

        private static object Value(string s, ref int i)
        {
            Space(s, ref i);
            if (i >= s.Length) throw new FormatException("JSON: unexpected end");
            var c = s[i];
            if (c == '{')
            {
                var o = new Dictionary<string, object>();
                i++;
                Space(s, ref i);
                if (s[i] == '}') { i++; return o; }
                while (true)
                {
                    Space(s, ref i);
                    var key = String(s, ref i);
                    Space(s, ref i);
                    Expect(s, ref i, ':');
                    o[key] = Value(s, ref i);
                    Space(s, ref i);
                    if (s[i] == ',') { i++; continue; }
                    Expect(s, ref i, '}');
                    return o;
                }
            }
            if (c == '[')
            {
                var a = new List<object>();
                i++;
                Space(s, ref i);
                if (s[i] == ']') { i++; return a; }
                while (true)
                {
                    a.Add(Value(s, ref i));
                    Space(s, ref i);
                    if (s[i] == ',') { i++; continue; }
                    Expect(s, ref i, ']');
                    return a;
                }
            }
            if (c == '"') return String(s, ref i);
            if (Word(s, ref i, "true")) return true;
            if (Word(s, ref i, "false")) return false;
            if (Word(s, ref i, "null")) return null;
            var start = i;
            while (i < s.Length && "+-0123456789.eE".IndexOf(s[i]) >= 0) i++;
            if (start == i) throw new FormatException("JSON: unexpected '" + c + "' at " + i);
            return double.Parse(s.Substring(start, i - start), NumberStyles.Float, CultureInfo.InvariantCulture);
        }

        private static bool Word(string s, ref int i, string word)
        {
            if (string.CompareOrdinal(s, i, word, 0, word.Length) != 0) return false;
            i += word.Length;
            return true;
        }

        private static void Expect(string s, ref int i, char c)
        {
            if (i >= s.Length || s[i] != c) throw new FormatException("JSON: expected '" + c + "' at " + i);
            i++;
        }

        private static string String(string s, ref int i)
        {
            Expect(s, ref i, '"');
            var b = new StringBuilder();
            while (true)
            {
                if (i >= s.Length) throw new FormatException("JSON: unterminated string");
                var c = s[i++];
                if (c == '"') return b.ToString();
                if (c != '\\') { b.Append(c); continue; }
                var e = s[i++];
                switch (e)
                {
                    case 'b': b.Append('\b'); break;
                    case 'f': b.Append('\f'); break;
                    case 'n': b.Append('\n'); break;
                    case 'r': b.Append('\r'); break;
                    case 't': b.Append('\t'); break;
                    case 'u': b.Append((char)int.Parse(s.Substring(i, 4), NumberStyles.HexNumber, CultureInfo.InvariantCulture)); i += 4; break;
                    default: b.Append(e); break;
                }
            }
        }

        /// <summary>JSON text of null, strings, booleans, numbers, enums (their API value), dictionaries and lists.</summary>
        public static string Write(object value)
        {
            var b = new StringBuilder();
            Write(b, value);
            return b.ToString();
        }

        private static void Write(StringBuilder b, object value)
        {
            if (value == null) { b.Append("null"); return; }
            if (value is string s) { Quote(b, s); return; }
            if (value is bool flag) { b.Append(flag ? "true" : "false"); return; }
            if (value is Enum e) { Quote(b, WireValue.Of(e)); return; }
            if (value is DateTimeOffset t) { Quote(b, t.ToString("yyyy-MM-ddTHH:mm:ss.fffzzz", CultureInfo.InvariantCulture)); return; }
            if (value is IDictionary<string, object> o)
            {
                b.Append('{');
                var first = true;
                foreach (var pair in o)
                {
                    if (!first) b.Append(',');
                    first = false;
                    Quote(b, pair.Key);
                    b.Append(':');
                    Write(b, pair.Value);
                }
                b.Append('}');
                return;
            }
            if (value is IEnumerable items)
            {
                b.Append('[');
                var first = true;
                foreach (var item in items)
                {
                    if (!first) b.Append(',');
                    first = false;
                    Write(b, item);
                }
                b.Append(']');
                return;
            }
            b.Append(Convert.ToString(value, CultureInfo.InvariantCulture));
        }

        private static void Quote(StringBuilder b, string s)
        {
            b.Append('"');
            foreach (var c in s)
            {
                if (c == '"' || c == '\\') b.Append('\\').Append(c);
                else if (c < ' ') b.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                else b.Append(c);
            }
            b.Append('"');
        }
    }

    /// <summary>Typed reads of a parsed JSON object.</summary>
    internal static class JsonObject
    {
        public static object Get(this IDictionary<string, object> o, string name)
        {
            object v;
            return o != null && o.TryGetValue(name, out v) ? v : null;
        }

        public static string Str(this IDictionary<string, object> o, string name) => o.Get(name) as string;

        public static int Int(this IDictionary<string, object> o, string name) => o.Get(name) is double d ? (int)d : 0;

        public static long Long(this IDictionary<string, object> o, string name) => o.Get(name) is double d ? (long)d : 0;

        public static bool Bool(this IDictionary<string, object> o, string name) => o.Get(name) is bool b && b;

        public static IDictionary<string, object> Obj(this IDictionary<string, object> o, string name) => o.Get(name) as IDictionary<string, object>;

        public static T Enum<T>(this IDictionary<string, object> o, string name) where T : struct => WireValue.Parse<T>(o.Str(name));

        public static DateTimeOffset? Time(this IDictionary<string, object> o, string name)
        {
            var s = o.Str(name);
            return s == null ? (DateTimeOffset?)null : DateTimeOffset.Parse(s, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal);
        }

        public static IReadOnlyList<T> List<T>(this IDictionary<string, object> o, string name, Func<IDictionary<string, object>, T> read)
        {
            var items = o.Get(name) as List<object>;
            if (items == null) return null;
            var list = new List<T>();
            foreach (var item in items) list.Add(read(item as IDictionary<string, object>));
            return list;
        }
    }
}
