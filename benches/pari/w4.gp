\\ W4 (issue 34): the corner at alpha = pi/16 in the number field Q(cos(pi/16)) (degree 8),
\\ Fassino-Pasquero (2020) TR_nid in the (xi', eta') form (14), k = tan(pi/16),
\\ eps = 99/100, (xi', eta') = (1 + j/200, 1 - j/200), j = 1..200, each until exit.
\\ Elements are Mod(polynomial, T_8) (T_8 is cos(pi/16)'s minimal polynomial up to a
\\ constant); a sign is read from the polynomial evaluated at cos(Pi/16) in PARI's default
\\ floating-point precision (what a PARI user would write; impactkit certifies its signs).
P=polchebyshev(8); c=Mod(x,P); c0=cos(Pi/16);
k=subst(polchebyshev(7),x,c)/c; k2=k^2; e=99/100;
pos(a)=subst(lift(a),x,c0)>0;
step(xi,eta)={
  my(S,Pp,Q,D,a,cc,b);
  if(pos(xi) && pos(eta),
    S=xi^2+eta^2; Pp=(1+k2)*S; Q=2*(1-k2)*xi*eta; D=Pp-Q;
    a=(e*Pp+Q)/D; cc=(1+e)*(1-k2)*S/D; return([cc*eta-a*xi, cc*xi-a*eta]));
  b=(1+e)*(1-k2)/(1+k2);
  if(!pos(xi) && pos(eta), return([xi+b*eta, -e*eta]));
  if(pos(xi) && !pos(eta), return([-e*xi, eta+b*xi]));
  return([xi,eta]);
}
run(xi,eta)={my(v=[xi,eta],n=0); while(pos(v[1])||pos(v[2]), v=step(v[1],v[2]); n++); n}
t=getabstime(); tot=0; for(j=1,200, tot+=run(Mod(1+j/200,P),Mod(1-j/200,P))); print("W4 time ms ", getabstime()-t, " steps ", tot);
