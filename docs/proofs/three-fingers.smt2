; The closed form `lost` for Simple Chopsticks with n = 3 satisfies the
; level recursion at every pair of sides with equal hand counts: `unsat`
; proves it. The side to move holds a b c of the values 1..3, the other d e f.
(set-logic QF_LIA)
(define-fun lost ((a Int) (b Int) (c Int) (d Int) (e Int) (f Int)) Bool
  (ite (not (<= f 0)) false (ite (= e 0) (= (mod b 2) 1) (ite (= d 0) (= (mod a 2) 1) (and (and (= c 0) (not (<= a d))) (= (mod (- a d) 2) 1))))))
(declare-fun a () Int)
(assert (>= a 0))
(declare-fun b () Int)
(assert (>= b 0))
(declare-fun c () Int)
(assert (>= c 0))
(declare-fun d () Int)
(assert (>= d 0))
(declare-fun e () Int)
(assert (>= e 0))
(declare-fun f () Int)
(assert (>= f 0))
(assert (= (+ a b c) (+ d e f)))
(assert (>= (+ a b c) 1))
(assert (not (= (lost a b c d e f) (and (and (and (and (and (and (and (and (and true (ite (and (>= a 1) (>= d 1)) (not (lost (- d 1) (+ e 1) f a b c)) true)) (ite (and (>= a 1) (>= e 1)) (not (lost d (- e 1) (+ f 1) a b c)) true)) (ite (and (>= a 1) (>= f 1)) (not (not (or (or (or (or (or (or false (ite (and (>= d 1) (>= c 1)) (lost a b (- c 1) d e (- f 1)) false)) (ite (and (>= e 1) (>= b 1)) (lost a (- b 1) c d e (- f 1)) false)) (ite (and (>= e 1) (>= c 1)) (lost a b (- c 1) d e (- f 1)) false)) (ite (and (>= (- f 1) 1) (>= a 1)) (lost (- a 1) b c d e (- f 1)) false)) (ite (and (>= (- f 1) 1) (>= b 1)) (lost a (- b 1) c d e (- f 1)) false)) (ite (and (>= (- f 1) 1) (>= c 1)) (lost a b (- c 1) d e (- f 1)) false)))) true)) (ite (and (>= b 1) (>= d 1)) (not (lost (- d 1) e (+ f 1) a b c)) true)) (ite (and (>= b 1) (>= e 1)) (not (not (or (or (or (or (or (or false (ite (and (>= d 1) (>= c 1)) (lost a b (- c 1) d (- e 1) f) false)) (ite (and (>= (- e 1) 1) (>= b 1)) (lost a (- b 1) c d (- e 1) f) false)) (ite (and (>= (- e 1) 1) (>= c 1)) (lost a b (- c 1) d (- e 1) f) false)) (ite (and (>= f 1) (>= a 1)) (lost (- a 1) b c d (- e 1) f) false)) (ite (and (>= f 1) (>= b 1)) (lost a (- b 1) c d (- e 1) f) false)) (ite (and (>= f 1) (>= c 1)) (lost a b (- c 1) d (- e 1) f) false)))) true)) (ite (and (>= b 1) (>= f 1)) (not (not (or (or (or (or (or (or false (ite (and (>= d 1) (>= c 1)) (lost a b (- c 1) d e (- f 1)) false)) (ite (and (>= e 1) (>= b 1)) (lost a (- b 1) c d e (- f 1)) false)) (ite (and (>= e 1) (>= c 1)) (lost a b (- c 1) d e (- f 1)) false)) (ite (and (>= (- f 1) 1) (>= a 1)) (lost (- a 1) b c d e (- f 1)) false)) (ite (and (>= (- f 1) 1) (>= b 1)) (lost a (- b 1) c d e (- f 1)) false)) (ite (and (>= (- f 1) 1) (>= c 1)) (lost a b (- c 1) d e (- f 1)) false)))) true)) (ite (and (>= c 1) (>= d 1)) (not (not (or (or (or (or (or (or false (ite (and (>= (- d 1) 1) (>= c 1)) (lost a b (- c 1) (- d 1) e f) false)) (ite (and (>= e 1) (>= b 1)) (lost a (- b 1) c (- d 1) e f) false)) (ite (and (>= e 1) (>= c 1)) (lost a b (- c 1) (- d 1) e f) false)) (ite (and (>= f 1) (>= a 1)) (lost (- a 1) b c (- d 1) e f) false)) (ite (and (>= f 1) (>= b 1)) (lost a (- b 1) c (- d 1) e f) false)) (ite (and (>= f 1) (>= c 1)) (lost a b (- c 1) (- d 1) e f) false)))) true)) (ite (and (>= c 1) (>= e 1)) (not (not (or (or (or (or (or (or false (ite (and (>= d 1) (>= c 1)) (lost a b (- c 1) d (- e 1) f) false)) (ite (and (>= (- e 1) 1) (>= b 1)) (lost a (- b 1) c d (- e 1) f) false)) (ite (and (>= (- e 1) 1) (>= c 1)) (lost a b (- c 1) d (- e 1) f) false)) (ite (and (>= f 1) (>= a 1)) (lost (- a 1) b c d (- e 1) f) false)) (ite (and (>= f 1) (>= b 1)) (lost a (- b 1) c d (- e 1) f) false)) (ite (and (>= f 1) (>= c 1)) (lost a b (- c 1) d (- e 1) f) false)))) true)) (ite (and (>= c 1) (>= f 1)) (not (not (or (or (or (or (or (or false (ite (and (>= d 1) (>= c 1)) (lost a b (- c 1) d e (- f 1)) false)) (ite (and (>= e 1) (>= b 1)) (lost a (- b 1) c d e (- f 1)) false)) (ite (and (>= e 1) (>= c 1)) (lost a b (- c 1) d e (- f 1)) false)) (ite (and (>= (- f 1) 1) (>= a 1)) (lost (- a 1) b c d e (- f 1)) false)) (ite (and (>= (- f 1) 1) (>= b 1)) (lost a (- b 1) c d e (- f 1)) false)) (ite (and (>= (- f 1) 1) (>= c 1)) (lost a b (- c 1) d e (- f 1)) false)))) true)))))
(check-sat)
