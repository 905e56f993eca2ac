\\ W1b (issue 12): k^2 = 1e-4, eps = 99/100, 200 entrance velocities
\\ (xi', eta') = (1 + j/200, 1 - j/200), j = 1..200, each until exit (31,483 steps).
k2=1/10^4; e=99/100;
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
run(xi,eta)={my(v=[xi,eta],n=0); while(!(v[1]<=0&&v[2]<=0), v=step(v[1],v[2]); n++); n}
t=getabstime(); tot=0; for(j=1,200, tot+=run(1+j/200,1-j/200)); print("W1b time ms ", getabstime()-t, " steps ", tot);
