# The PowerShell half of test/support/pwsh.ts: one long-lived pwsh answering JSON-lines requests.
# Requests arrive over a Unix socket, not stdin: a native command this process starts inherits
# its stdin and would read the requests.
param(
  [Parameter(Mandatory)] [string] $Socket,
  # Where the recorder writes `self`, `argv` and `stdin` (it reads the same path from its
  # environment); the run answer carries their bytes back.
  [Parameter(Mandatory)] [string] $RecordDir
)
Set-StrictMode -Version Latest
$ErrorActionPreference = 'Stop'

Add-Type -TypeDefinition (Get-Content -Raw -LiteralPath (Join-Path $PSScriptRoot 'describe.cs')) `
  -ReferencedAssemblies ([psobject].Assembly.Location), System.Text.Encodings.Web, System.Text.Json, System.Memory, System.Runtime, System.Collections, System.Linq.Expressions

function Read-Recorded([string] $Name) {
  $file = Join-Path $RecordDir $Name
  if ([IO.File]::Exists($file)) { [Convert]::ToBase64String([IO.File]::ReadAllBytes($file)) } else { $null }
}

# Runs one source as pwsh -Command would, under the given native argument passing mode.
function Invoke-Recorded([string] $Source, [string] $Mode) {
  foreach ($name in 'self', 'argv', 'stdin') { [IO.File]::Delete((Join-Path $RecordDir $name)) }
  # Local to this call; the script block below runs in a child scope and reads it from here.
  $PSNativeCommandArgumentPassing = $Mode
  $ErrorActionPreference = 'Continue'
  $global:LASTEXITCODE = $null
  $errors = [Collections.Generic.List[string]]::new()
  $output = [Collections.Generic.List[string]]::new()
  try {
    foreach ($item in (& ([scriptblock]::Create($Source)) *>&1)) {
      if ($item -is [Management.Automation.ErrorRecord]) { $errors.Add($item.FullyQualifiedErrorId) } else { $output.Add([string]$item) }
    }
  } catch {
    $errors.Add($_.FullyQualifiedErrorId)
  }
  [ordered]@{
    errors = $errors; output = $output; exit = $global:LASTEXITCODE
    self = Read-Recorded 'self'; argv = Read-Recorded 'argv'; stdin = Read-Recorded 'stdin'
  }
}

# PowerShell hands $null to a string parameter as '', which would set the variable empty.
function Set-ProcessVariable([string] $Name, $Value) {
  if ($null -eq $Value) { $Value = [NullString]::Value }
  [Environment]::SetEnvironmentVariable($Name, $Value)
}

function Get-Answer([string] $Request) {
  switch ([CursorhooksPwshDescribe]::Op($Request)) {
    'parse' { return [CursorhooksPwshDescribe]::ParseAll($Request) }
    'drives' {
      # Every drive letter, so any generated `X:\` path resolves below one scratch root.
      $root = [CursorhooksPwshDescribe]::Text($Request, 'root')
      foreach ($letter in [char[]](65..90)) {
        New-PSDrive -Name $letter -PSProvider FileSystem -Root $root -Scope Global | Out-Null
      }
      return 'null'
    }
    'run' {
      $mode = [CursorhooksPwshDescribe]::Text($Request, 'mode')
      $results = [Collections.Generic.List[object]]::new()
      foreach ($source in [CursorhooksPwshDescribe]::Sources($Request)) { $results.Add((Invoke-Recorded $source $mode)) }
      return ConvertTo-Json -InputObject $results -Depth 4 -Compress -EscapeHandling EscapeNonAscii
    }
    'run-in' {
      # One source as a hook: started in `cwd` with `env` set (null unsets), both restored after.
      $mode = [CursorhooksPwshDescribe]::Text($Request, 'mode')
      $vars = [CursorhooksPwshDescribe]::Env($Request)
      $saved = @{}
      foreach ($name in $vars.Keys) {
        $saved[$name] = [Environment]::GetEnvironmentVariable($name)
        Set-ProcessVariable $name $vars[$name]
      }
      Push-Location -LiteralPath ([CursorhooksPwshDescribe]::Text($Request, 'cwd'))
      try {
        $result = Invoke-Recorded ([CursorhooksPwshDescribe]::Text($Request, 'source')) $mode
      } finally {
        Pop-Location
        foreach ($name in $saved.Keys) { Set-ProcessVariable $name $saved[$name] }
      }
      return ConvertTo-Json -InputObject $result -Depth 4 -Compress -EscapeHandling EscapeNonAscii
    }
    default { throw "unknown op" }
  }
}

$client = [Net.Sockets.Socket]::new([Net.Sockets.AddressFamily]::Unix, [Net.Sockets.SocketType]::Stream, [Net.Sockets.ProtocolType]::Unspecified)
$client.Connect([Net.Sockets.UnixDomainSocketEndPoint]::new($Socket))
$stream = [Net.Sockets.NetworkStream]::new($client, $true)
$utf8 = [Text.UTF8Encoding]::new($false)
$reader = [IO.StreamReader]::new($stream, $utf8)
$writer = [IO.StreamWriter]::new($stream, $utf8)
$writer.NewLine = "`n"
$writer.AutoFlush = $true
while ($null -ne ($line = $reader.ReadLine())) {
  try {
    $writer.WriteLine('{"ok":true,"result":' + (Get-Answer $line) + '}')
  } catch {
    $writer.WriteLine('{"ok":false,"error":' + (ConvertTo-Json -InputObject "$_" -Compress -EscapeHandling EscapeNonAscii) + '}')
  }
}
