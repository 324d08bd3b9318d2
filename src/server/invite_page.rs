//! The invitation's page when the server has no browser build (`triboard serve` without `--web`
//! or `web/dist`): an invitation link (`http://host:port/#join=CODE`, `net::links::join_link`)
//! opens this small page instead of a 404. It shows the code (read from the address's fragment by a
//! few lines of inline script; the instructions say where it is without script), how to join from
//! the app, and how the server's operator can serve the browser app (`docs/design.md` §Web).

/// The page served at `/` without a browser build: plain HTML, no outside resource.
pub const INVITE_PAGE: &str = r##"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>triboard: an invitation to play</title>
<style>
body { font-family: sans-serif; max-width: 40em; margin: 2em auto; padding: 0 1em; line-height: 1.5;
       background: #202328; color: #e8e8e8; }
code, #code { font-family: monospace; }
#code { font-size: 2em; font-weight: bold; letter-spacing: 0.1em; }
a { color: #8fc0ff; }
</style>
</head>
<body>
<h1>An invitation to play triboard</h1>
<p id="has-code" hidden>Your join code: <span id="code"></span></p>
<p>The join code is the part of this page's address after <code>#join=</code>
(eight letters and digits, such as <code>ABCD-2345</code>).</p>
<h2>How to join from the app</h2>
<ol>
<li>Open triboard on your computer (<code>triboard</code>, with no command).</li>
<li>On the start screen press <b>Play online…</b>, then <b>Invite a friend</b>.</li>
<li>Under <b>Join a game</b>, paste this page's whole address (it names this server and the code)
and press <b>Join</b>. Or type the code there, with <span id="server">this server's address</span>
in the <b>Server</b> field.</li>
</ol>
<h2>Playing in the browser</h2>
<p>This server was started without the browser app, so the game cannot open here. Whoever runs
the server can build it (<code>web/build.sh</code> puts it in <code>web/dist</code>, which
<code>triboard serve</code> finds) or start the server with <code>--web DIR</code>; the README's
"Play in the browser" and "Host a server" sections say how.</p>
<script>
(function () {
  var m = /^#join=([A-Za-z0-9 -]{1,40})$/.exec(decodeURIComponent(location.hash));
  if (m) {
    document.getElementById("code").textContent = m[1];
    document.getElementById("has-code").hidden = false;
  }
  if (location.host) {
    document.getElementById("server").textContent = location.host;
  }
})();
</script>
</body>
</html>
"##;
