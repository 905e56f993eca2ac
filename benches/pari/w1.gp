\\ W1 (issue 12): Fassino-Pasquero (2020) TR_nid in the (xi', eta') form (14), k^2 = 1e-6,
\\ eps = 99/100, (xi', eta') = (3/2, 1/2), 1000 rule applications, canonical rationals.
k2=1/10^6; e=99/100; k=1/1000;
step(xi,eta)={
  my(S,P,Q,D,a,c,b);
  if(xi>0 && eta>0,
    S=xi^2+eta^2; P=(1+k2)*S; Q=2*(1-k2)*xi*eta; D=P-Q;
    a=(e*P+Q)/D; c=(1+e)*(1-k2)*S/D; return([c*eta-a*xi, c*xi-a*eta]));
  b=(1+e)*(1-k2)/(1+k2);
  if(xi<=0 && eta>0, return([xi+b*eta, -e*eta]));
  if(xi>0 && eta<=0, return([-e*xi, eta+b*xi]));
  return([xi,eta]);
}
w1()={my(v=[3/2,1/2],n=0,zs=""); for(i=1,1000, if(v[1]<=0&&v[2]<=0, break); v=step(v[1],v[2]); n++); [n,v]}
t=getabstime(); r=w1(); print("W1 time ms ", getabstime()-t, " steps ", r[1]);
print("bits num xi ", #binary(abs(numerator(r[2][1]))), " num eta ", #binary(abs(numerator(r[2][2]))), " den xi ", #binary(denominator(r[2][1])));
x=(r[2][1]+r[2][2])/(2*k); y=(r[2][1]-r[2][2])/2;
print("bits num x ", #binary(abs(numerator(x))), " num y ", #binary(abs(numerator(y))), " den x ", #binary(denominator(x)));
print("x~", x*1., " y~", y*1.);
