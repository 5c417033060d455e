import './gym.css';
import { Outlet } from 'react-router';
import { GymNav } from './components/gym-nav';

export const handle = { title: 'Gym owners' };

/** `/gymowners`: the gym area's frame around the owner list and an owner's page. */
export function Component() {
  return (
    <div className="stack-lg gym">
      <GymNav />
      <Outlet />
    </div>
  );
}
