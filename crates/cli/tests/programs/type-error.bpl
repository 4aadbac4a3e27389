procedure main()
{
  var x : int;
  var b : bool;
  x := b;
}
