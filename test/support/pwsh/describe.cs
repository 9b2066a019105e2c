// Compiled by server.ps1 with Add-Type: describing 20,000 parses in C# takes about a second,
// the same walk written in PowerShell about thirty.
using System.IO;
using System.Management.Automation.Language;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;

public static class CursorhooksPwshDescribe
{
    // The default encoder escapes every non-ASCII character, so the answer is plain ASCII
    // whatever the console encoding.
    static readonly JsonWriterOptions Ascii = new JsonWriterOptions { Encoder = JavaScriptEncoder.Default };

    /** The request's `op`. */
    public static string Op(string request)
    {
        using var doc = JsonDocument.Parse(request);
        return doc.RootElement.GetProperty("op").GetString();
    }

    /** A string field of the request, read without PowerShell's date conversion. */
    public static string Text(string request, string name)
    {
        using var doc = JsonDocument.Parse(request);
        return doc.RootElement.GetProperty(name).GetString();
    }

    /** The request's `sources`. */
    public static string[] Sources(string request)
    {
        using var doc = JsonDocument.Parse(request);
        var list = doc.RootElement.GetProperty("sources");
        var sources = new string[list.GetArrayLength()];
        var i = 0;
        foreach (var source in list.EnumerateArray()) sources[i++] = source.GetString();
        return sources;
    }

    /** The request's `env`: each variable's value, or null to unset it. */
    public static System.Collections.Generic.Dictionary<string, string> Env(string request)
    {
        using var doc = JsonDocument.Parse(request);
        var vars = new System.Collections.Generic.Dictionary<string, string>();
        foreach (var item in doc.RootElement.GetProperty("env").EnumerateObject())
            vars[item.Name] = item.Value.ValueKind == JsonValueKind.Null ? null : item.Value.GetString();
        return vars;
    }

    /** One JSON array: for each source, what PowerShell's own parser made of it. */
    public static string ParseAll(string request)
    {
        var stream = new MemoryStream();
        using (var w = new Utf8JsonWriter(stream, Ascii))
        {
            w.WriteStartArray();
            foreach (var source in Sources(request)) Describe(w, source);
            w.WriteEndArray();
        }
        return Encoding.UTF8.GetString(stream.ToArray());
    }

    // Parse errors, the number of top-level statements in every named block, and every
    // pipeline in the tree (nested script blocks included, outermost first) with its elements.
    static void Describe(Utf8JsonWriter w, string source)
    {
        var ast = Parser.ParseInput(source, out Token[] _, out ParseError[] errors);
        w.WriteStartObject();
        w.WriteStartArray("errors");
        foreach (var error in errors) w.WriteStringValue(error.ErrorId);
        w.WriteEndArray();
        var statements = 0;
        foreach (var block in new NamedBlockAst[] { ast.BeginBlock, ast.ProcessBlock, ast.EndBlock, ast.DynamicParamBlock, ast.CleanBlock })
            if (block != null) statements += block.Statements.Count;
        w.WriteNumber("statements", statements);
        w.WriteStartArray("pipelines");
        foreach (var found in ast.FindAll(node => node is PipelineAst, true))
        {
            w.WriteStartArray();
            foreach (var element in ((PipelineAst)found).PipelineElements) PipelineElement(w, element);
            w.WriteEndArray();
        }
        w.WriteEndArray();
        w.WriteEndObject();
    }

    // A command: its invocation operator and elements. Anything else: its type and text.
    static void PipelineElement(Utf8JsonWriter w, CommandBaseAst element)
    {
        w.WriteStartObject();
        w.WriteString("ast", element.GetType().Name);
        if (element is CommandAst command)
        {
            w.WriteString("operator", command.InvocationOperator.ToString());
            w.WriteStartArray("elements");
            foreach (var part in command.CommandElements)
            {
                w.WriteStartObject();
                w.WriteString("ast", part.GetType().Name);
                if (part is StringConstantExpressionAst constant)
                {
                    w.WriteString("kind", constant.StringConstantType.ToString());
                    w.WriteString("value", constant.Value);
                }
                else
                {
                    w.WriteNull("kind");
                    w.WriteString("value", part.Extent.Text);
                }
                w.WriteEndObject();
            }
            w.WriteEndArray();
        }
        else
        {
            w.WriteString("text", element.Extent.Text);
        }
        w.WriteEndObject();
    }
}
