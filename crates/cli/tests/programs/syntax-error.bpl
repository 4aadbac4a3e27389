procedure main()
{
  var x : int;
  x := 1 +;
}
