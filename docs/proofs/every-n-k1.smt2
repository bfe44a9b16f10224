; The closed form (`mover_lost`, `opponent_lost`) of the reduced game
; with k = 1 (docs/EVERY-N.md) satisfies its recursion at every pair of
; sides with equal hand counts, for both players to move: `unsat` proves
; it. A holds a r (small hands 1..k, then big), B holds w v (n, n - 1, ...).
(set-logic QF_LIA)
(define-fun mover_lost ((a Int) (r Int) (w Int) (v Int)) Bool
  (and (= w 0) (= (mod a 2) 1)))
(define-fun opponent_lost ((a Int) (r Int) (w Int) (v Int)) Bool
  (and (= r 0) (= (mod v 2) 1)))
(declare-fun a () Int)
(assert (>= a 0))
(declare-fun r () Int)
(assert (>= r 0))
(declare-fun w () Int)
(assert (>= w 0))
(declare-fun v () Int)
(assert (>= v 0))
(assert (= (+ a r) (+ w v)))
(assert (>= (+ a r) 1))
(assert (not (and (= (mover_lost a r w v) (and (and (and (and true (ite (and (>= a 1) (>= w 1)) (not (not (or (or (or false (ite (and (>= a 1) (>= (- w 1) 1)) (mover_lost (- a 1) r (- w 1) v) false)) (ite (and (>= r 1) (>= (- w 1) 1)) (mover_lost a (- r 1) (- w 1) v) false)) (ite (and (>= r 1) (>= v 1)) (mover_lost a (- r 1) (- w 1) v) false)))) true)) (ite (and (>= a 1) (>= v 1)) (not (opponent_lost a r (+ w 1) (- v 1))) true)) (ite (and (>= r 1) (>= w 1)) (not (not (or (or (or false (ite (and (>= a 1) (>= (- w 1) 1)) (mover_lost (- a 1) r (- w 1) v) false)) (ite (and (>= r 1) (>= (- w 1) 1)) (mover_lost a (- r 1) (- w 1) v) false)) (ite (and (>= r 1) (>= v 1)) (mover_lost a (- r 1) (- w 1) v) false)))) true)) (ite (and (>= r 1) (>= v 1)) (not (not (or (or (or false (ite (and (>= a 1) (>= w 1)) (mover_lost (- a 1) r w (- v 1)) false)) (ite (and (>= r 1) (>= w 1)) (mover_lost a (- r 1) w (- v 1)) false)) (ite (and (>= r 1) (>= (- v 1) 1)) (mover_lost a (- r 1) w (- v 1)) false)))) true))) (= (opponent_lost a r w v) (and (and (and (and true (ite (and (>= a 1) (>= w 1)) (not (not (or (or (or false (ite (and (>= (- a 1) 1) (>= w 1)) (opponent_lost (- a 1) r (- w 1) v) false)) (ite (and (>= r 1) (>= w 1)) (opponent_lost (- a 1) r (- w 1) v) false)) (ite (and (>= r 1) (>= v 1)) (opponent_lost (- a 1) r w (- v 1)) false)))) true)) (ite (and (>= a 1) (>= v 1)) (not (mover_lost (- a 1) (+ r 1) w v)) true)) (ite (and (>= r 1) (>= w 1)) (not (not (or (or (or false (ite (and (>= a 1) (>= w 1)) (opponent_lost a (- r 1) (- w 1) v) false)) (ite (and (>= (- r 1) 1) (>= w 1)) (opponent_lost a (- r 1) (- w 1) v) false)) (ite (and (>= (- r 1) 1) (>= v 1)) (opponent_lost a (- r 1) w (- v 1)) false)))) true)) (ite (and (>= r 1) (>= v 1)) (not (not (or (or (or false (ite (and (>= a 1) (>= w 1)) (opponent_lost a (- r 1) (- w 1) v) false)) (ite (and (>= (- r 1) 1) (>= w 1)) (opponent_lost a (- r 1) (- w 1) v) false)) (ite (and (>= (- r 1) 1) (>= v 1)) (opponent_lost a (- r 1) w (- v 1)) false)))) true))))))
(check-sat)
