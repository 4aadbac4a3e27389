//#Safe
// Latin-1 encoded file with CRLF line ends: café ½
procedure main() {
  var x: int;
  x := 1;
  assert x == 1;
}
